import { z } from 'zod';
import { BUSINESS_ERROR_CODES, CAMPAIGN_STATUSES, lenientEnum } from './enums.js';
import {
  BusinessError,
  ContractError,
  HttpStatusError,
  MalformedResponseError,
  RequestRefusedError,
  UnauthenticatedError,
  type BusinessErrorField,
} from './errors.js';
import { compileAnswerCheck, type AnswerCheck } from './answer-check.js';
import { OPERATION_NAMES, operations, type OperationName, type ResponseOf } from './operations.js';

/**
 * What one HTTP answer of the backend means (the envelope of docs/adr/rest-reference.md). Pure: the transport hands over the
 * status and the body text, this decides.
 *
 * - `success`: a success envelope whose payload satisfies the contract.
 * - `refused`: the backend answered and said no to this request: a business error, an unknown
 *   token, or any 4xx without a usable envelope (`blames`). Not a failure of the backend: no
 *   retry, and it keeps the circuit closed, so one caller's refused requests never reach another.
 * - `unusable`: the backend answered with a success whose payload breaks the contract. Retrying
 *   does not help and the backend is up, so it is not a transport failure either.
 * - `failed`: a 5xx without a usable envelope, or a body that is no envelope at all outside the
 *   4xx. Reads may retry these and they count towards opening the circuit.
 */
export type Verdict<N extends OperationName> =
  | { kind: 'success'; value: ResponseOf<N> }
  | { kind: 'refused'; error: BusinessError | UnauthenticatedError | RequestRefusedError }
  | { kind: 'unusable'; error: ContractError }
  | { kind: 'failed'; error: HttpStatusError | MalformedResponseError };

/** Codes a backend may use for a refused token in an error envelope. */
const UNAUTHENTICATED_CODES: ReadonlySet<string> = new Set(['unauthorized', 'unauthenticated', 'invalidToken']);
const KNOWN_BUSINESS_CODES: ReadonlySet<string> = new Set(BUSINESS_ERROR_CODES);

const currentStatus = z.object({ ymCampaignId: z.number().int(), campaignStatus: lenientEnum(CAMPAIGN_STATUSES) });

/** Keys of the envelope that a top-level payload carries besides its own; zod strips them. */
const ENVELOPE_KEYS = ['status', 'errors'] as const;

const answerChecks = Object.fromEntries(
  OPERATION_NAMES.map((name) => [name, compileAnswerCheck(operations[name].response, operations[name].wrapping === 'top-level' ? ENVELOPE_KEYS : [])]),
) as Record<OperationName, AnswerCheck>;

/**
 * Whom an HTTP status blames when the answer says nothing usable of its own: a 4xx the request
 * (the caller's problem, even 429 and a proxy's 431: another request may well pass), a 5xx the
 * backend (an outage). The one place refusal and outage are told apart.
 */
export function blames(httpStatus: number): 'request' | 'backend' | undefined {
  if (httpStatus >= 400 && httpStatus <= 499) return 'request';
  return httpStatus >= 500 ? 'backend' : undefined;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

export function interpretResponse<N extends OperationName>(operation: N, httpStatus: number, bodyText: string): Verdict<N> {
  if (httpStatus === 401) return { kind: 'refused', error: new UnauthenticatedError(operation, httpStatus) };

  let body: unknown;
  try {
    body = JSON.parse(bodyText);
  } catch {
    return notAnEnvelope(operation, httpStatus, `expected a JSON envelope, got ${snippet(bodyText)}`);
  }
  if (!isObject(body)) {
    return notAnEnvelope(operation, httpStatus, `expected a JSON object envelope, got ${describeValue(body)}`);
  }

  if (body.status === 'success') {
    if (httpStatus < 200 || httpStatus > 299) {
      return notAnEnvelope(operation, httpStatus, `a success envelope must come with HTTP 2xx, got HTTP ${httpStatus}`);
    }
    return validatePayload(operation, body);
  }

  const problem = extractError(body);
  if (problem) {
    if (UNAUTHENTICATED_CODES.has(problem.code)) {
      return { kind: 'refused', error: new UnauthenticatedError(operation, httpStatus) };
    }
    // A gateway's own envelope on a 5xx is an outage, not an answer about the request.
    if (blames(httpStatus) === 'backend' && !KNOWN_BUSINESS_CODES.has(problem.code)) {
      return { kind: 'failed', error: new HttpStatusError(operation, httpStatus) };
    }
    // Most refusals carry no result at all; zod would make (and throw away) an error to say so.
    const current = isObject(body.result) ? currentStatus.safeParse(body.result) : undefined;
    return {
      kind: 'refused',
      error: new BusinessError(
        operation,
        problem.code,
        problem.detail,
        problem.fields,
        current?.success ? current.data : undefined,
        httpStatus,
      ),
    };
  }

  const detail =
    body.status === 'error'
      ? 'an error envelope must name an error code in errors, got none'
      : `expected status "success" or an error envelope, got status ${describeValue(body.status)}`;
  return notAnEnvelope(operation, httpStatus, detail);
}

function notAnEnvelope<N extends OperationName>(operation: N, httpStatus: number, detail: string): Verdict<N> {
  switch (blames(httpStatus)) {
    case 'request':
      return { kind: 'refused', error: new RequestRefusedError(operation, httpStatus) };
    case 'backend':
      return { kind: 'failed', error: new HttpStatusError(operation, httpStatus) };
    default:
      return { kind: 'failed', error: new MalformedResponseError(operation, detail, httpStatus) };
  }
}

function validatePayload<N extends OperationName>(operation: N, body: Record<string, unknown>): Verdict<N> {
  const def = operations[operation];
  const inResult = def.wrapping === 'result';
  const payload = inResult ? body.result : body;
  if (inResult && !isObject(payload)) {
    return {
      kind: 'unusable',
      error: new ContractError(operation, 'result', `a success envelope carries its payload in an object named result, got ${describeValue(payload)}`),
    };
  }
  if (answerChecks[operation](payload)) {
    return { kind: 'success', value: (inResult ? payload : withoutEnvelopeKeys(payload as Record<string, unknown>)) as ResponseOf<N> };
  }
  const parsed = def.response.safeParse(payload);
  if (parsed.success) return { kind: 'success', value: parsed.data as ResponseOf<N> };

  const issue = parsed.error.issues[0]!;
  const at = valueAt(payload, issue.path);
  const path = formatPath(inResult ? ['result', ...issue.path] : issue.path);
  return { kind: 'unusable', error: new ContractError(operation, path, `${expectation(issue)}, got ${describeValue(at)}`) };
}

/** The payload as zod would give it: the same object less the envelope's own keys. */
function withoutEnvelopeKeys(body: Record<string, unknown>): Record<string, unknown> {
  const { status: _status, errors: _errors, ...payload } = body;
  return payload;
}

interface ExtractedError {
  code: string;
  detail: string;
  fields: BusinessErrorField[];
}

/**
 * The error shapes a backend may answer with: `errors` as `{code, message, fields}`, as an
 * array of `{code, message?}`, or keyed by code (`{"campaignNotFound": "text"}`); also a bare
 * code string and `code`/`message` at the top level. An empty `errors: {}` is no error.
 */
function extractError(body: Record<string, unknown>): ExtractedError | undefined {
  const errors = body.errors;
  if (typeof errors === 'string' && errors) return { code: errors, detail: textOf(body.message), fields: [] };
  if (Array.isArray(errors)) return fromArray(errors);
  if (isObject(errors)) {
    if (typeof errors.code === 'string' && errors.code) {
      return { code: errors.code, detail: textOf(errors.message), fields: fieldsOf(errors.fields) };
    }
    const [code] = Object.keys(errors);
    if (code !== undefined) {
      const value = errors[code];
      return { code, detail: textOf(isObject(value) ? value.message : value), fields: isObject(value) ? fieldsOf(value.fields) : [] };
    }
  }
  if (typeof body.code === 'string' && body.code) {
    return { code: body.code, detail: textOf(body.message), fields: fieldsOf(body.fields) };
  }
  return undefined;
}

function fromArray(entries: unknown[]): ExtractedError | undefined {
  const items = entries.filter(isObject);
  const first = items.find((e) => typeof e.code === 'string' && e.code);
  const firstString = entries.find((e): e is string => typeof e === 'string' && e.length > 0);
  const code = (first?.code as string | undefined) ?? firstString;
  if (code === undefined) return undefined;
  const messages = items.map((e) => textOf(e.message, '')).filter(Boolean);
  const fields = items.flatMap((e) =>
    typeof e.field === 'string' ? [{ field: e.field, message: textOf(e.message) }] : fieldsOf(e.fields),
  );
  return { code, detail: messages.join('; ') || NO_MESSAGE, fields };
}

const NO_MESSAGE = 'the backend gave no message';

function textOf(value: unknown, fallback = NO_MESSAGE): string {
  if (typeof value === 'string' && value) return value;
  if (Array.isArray(value) && value.every((v) => typeof v === 'string') && value.length) return value.join('; ');
  return fallback;
}

function fieldsOf(value: unknown): BusinessErrorField[] {
  if (!Array.isArray(value)) return [];
  return value.filter(isObject).flatMap((f) => (typeof f.field === 'string' ? [{ field: f.field, message: textOf(f.message) }] : []));
}

/** `['campaigns', 3, 'campaignStatus']` → `campaigns[3].campaignStatus`. */
export function formatPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const key of path) {
    if (typeof key === 'number') out += `[${key}]`;
    else out += out ? `.${String(key)}` : String(key);
  }
  return out;
}

function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let node = root;
  for (const key of path) {
    if (typeof node !== 'object' || node === null) return undefined;
    node = (node as Record<PropertyKey, unknown>)[key];
  }
  return node;
}

/** What the contract wanted, phrased without zod's "Invalid input" for the lenient enums. */
function expectation(issue: z.core.$ZodIssue): string {
  if (issue.code === 'invalid_union') {
    const alternatives = issue.errors.flat().map((i, n) => (n ? plain(i.message).replace(/^expected /, '') : plain(i.message)));
    return alternatives.length ? alternatives.join(', or ') : issue.message;
  }
  return plain(issue.message);
}

/** zod's wording minus its prefix and its own "received" part; the caller says what came. */
function plain(message: string): string {
  return message.replace(/^Invalid (input|option): /, '').replace(/, received [^,]*$/, '');
}

function describeValue(value: unknown): string {
  if (value === undefined) return 'nothing (the field is missing)';
  if (value === null) return 'null';
  if (Array.isArray(value)) return `an array of ${value.length}`;
  if (typeof value === 'object') return 'an object';
  return `${typeof value} ${truncate(JSON.stringify(value))}`;
}

function snippet(text: string): string {
  if (text.length === 0) return 'an empty body';
  return JSON.stringify(truncate(text.replace(/\s+/g, ' ')));
}

function truncate(text: string, max = 60): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}
