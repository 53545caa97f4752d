import { quote } from '../text/received-value.js';

/**
 * The contract's own words for zod's built-in checks (types, bounds, formats, enum values), given
 * to every parse of a request (`{ error: issueMessage }`) by the emulator and the BFF alike. zod's
 * defaults ("Too small: expected number to be >0", "Invalid ISO datetime") say neither what the
 * field takes in terms a partner knows nor what came instead; these say both, in wording that is
 * right for a REST and a GraphQL caller (no enum values, no operation names). Refinements carry
 * their own messages and never reach this map.
 */

/** What a message calls a received value: quoted text, a number, or the kind of thing it is. */
function received(input: unknown): string {
  if (typeof input === 'string') return quote(input);
  if (typeof input === 'number' || typeof input === 'boolean' || typeof input === 'bigint') return String(input);
  if (input === null) return 'null';
  if (Array.isArray(input)) return 'a list';
  if (typeof input === 'object') return 'an object';
  return typeof input;
}

const EXPECTED: Record<string, string> = {
  int: 'a whole number',
  number: 'a number',
  string: 'text',
  boolean: 'true or false',
  array: 'a list',
  object: 'an object',
};

const EXAMPLE = '2026-03-01T09:00:00+03:00';

/**
 * What is wrong with a timestamp that is not ISO 8601 with an offset: most often the offset is
 * missing, which a partner can fix at once when told so.
 */
export function dateTimeProblem(input: unknown): string {
  const contract = `must be an ISO 8601 timestamp with a time-zone offset, such as ${EXAMPLE}`;
  if (typeof input !== 'string') return `${contract}, got ${received(input)}`;
  const local = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?$/.test(input);
  if (local) return `${quote(input)} lacks a time-zone offset: a timestamp here needs one, such as ${input}+03:00, or Z for UTC`;
  if (/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?:Z|[+-]\d{2}:\d{2})?$/.test(input)) return `${contract}: ${quote(input)} lacks the seconds`;
  if (/^\d{4}-\d{2}-\d{2}$/.test(input)) return `${contract}: ${quote(input)} is a date without a time and an offset`;
  if (/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:\d{2})$/.test(input)) {
    return `${contract}: ${quote(input)} is no real date and time (month, day, hour or offset out of range)`;
  }
  return `${contract}, got ${quote(input)}`;
}

function oneOf(values: readonly unknown[], input: unknown): string {
  return `must be one of ${values.map((v) => (typeof v === 'string' ? v : String(v))).join(', ')}, got ${received(input)}`;
}

interface RawIssue {
  code?: string;
  input?: unknown;
  origin?: string;
  expected?: string;
  minimum?: number | bigint;
  maximum?: number | bigint;
  inclusive?: boolean;
  format?: string;
  values?: readonly unknown[];
  keys?: readonly string[];
  errors?: readonly (readonly RawIssue[])[];
  divisor?: number;
}

function bound(issue: RawIssue, side: 'least' | 'most'): string {
  const limit = Number(side === 'least' ? issue.minimum : issue.maximum);
  const got = issue.input;
  switch (issue.origin) {
    case 'string': {
      if (side === 'least' && limit === 1) return 'must not be empty';
      const length = typeof got === 'string' ? `, got ${got.length}` : '';
      return `must be at ${side} ${limit} characters${length}`;
    }
    case 'array':
    case 'set': {
      const count = Array.isArray(got) ? `, got ${got.length}` : '';
      return side === 'least' && limit === 1 ? 'must hold at least one item' : `must hold at ${side} ${limit} items${count}`;
    }
    default:
      if (issue.inclusive === false) return `must be ${side === 'least' ? 'greater' : 'less'} than ${limit}, got ${received(got)}`;
      return `must be at ${side} ${limit}, got ${received(got)}`;
  }
}

/** zod's per-parse error map: a message for every built-in issue, never zod's default. */
export function issueMessage(issue: RawIssue): string {
  const input = issue.input;
  switch (issue.code) {
    case 'invalid_type':
      if (input === undefined) return 'is required';
      return `must be ${EXPECTED[issue.expected ?? ''] ?? issue.expected}, got ${received(input)}`;
    case 'too_small':
      return bound(issue, 'least');
    case 'too_big':
      return bound(issue, 'most');
    case 'invalid_format':
      if (issue.format === 'datetime') return dateTimeProblem(input);
      return `does not have the required format (${issue.format}), got ${received(input)}`;
    case 'invalid_value':
      return oneOf(issue.values ?? [], input);
    case 'invalid_union': {
      // A union of literals (currency codes): name every allowed value.
      const values = (issue.errors ?? []).flatMap((branch) => branch.flatMap((i) => (i.code === 'invalid_value' ? (i.values ?? []) : [])));
      if (values.length && values.length === (issue.errors ?? []).length) return oneOf(values, input);
      return `does not have any of the allowed forms, got ${received(input)}`;
    }
    case 'unrecognized_keys':
      return `holds fields that are not part of the request: ${(issue.keys ?? []).join(', ')}`;
    case 'not_multiple_of':
      return `must be a multiple of ${issue.divisor}, got ${received(input)}`;
    default:
      return `does not fit the contract, got ${received(input)}`;
  }
}

/** The options every request parse passes to zod. */
export const PARSE_OPTIONS = { error: issueMessage } as const;

/**
 * What kind of problem an issue is, for a caller to branch on without reading the message:
 * `required` (missing, empty, or a field the other fields make necessary), `tooLong` (text or a
 * list beyond its bound), `format` (not the form the field takes), `outOfRange` (a number, date
 * or colour beyond what is allowed, alone or against another field), `notAllowed` (a value the
 * other fields rule out), `notAllowedNow` (a change the campaign's current state rules out),
 * `notFound` (names something that does not exist).
 */
export type IssueKind = 'required' | 'tooLong' | 'format' | 'outOfRange' | 'notAllowed' | 'notAllowedNow' | 'notFound';

/** The `params` a refinement passes (`{ params: kind('format') }`) so its issues carry their kind. */
export const kind = (k: IssueKind) => ({ kind: k });

interface FinalIssue {
  code?: string;
  message?: string;
  origin?: string;
  minimum?: number | bigint;
  params?: { kind?: IssueKind };
}

/** The kind of a parse issue: a refinement's own (`params.kind`), or what a built-in check means. */
export function issueKind(issue: FinalIssue): IssueKind | null {
  switch (issue.code) {
    case 'custom':
      return issue.params?.kind ?? null;
    case 'invalid_type':
      // The message is this module's: "is required" is what a missing value gets.
      return issue.message === 'is required' ? 'required' : 'format';
    case 'too_small':
      return (issue.origin === 'string' || issue.origin === 'array' || issue.origin === 'set') && Number(issue.minimum) <= 1 ? 'required' : issue.origin === 'string' ? 'format' : 'outOfRange';
    case 'too_big':
      return issue.origin === 'string' || issue.origin === 'array' || issue.origin === 'set' ? 'tooLong' : 'outOfRange';
    case 'invalid_format':
    case 'invalid_value':
    case 'invalid_union':
    case 'not_multiple_of':
      return 'format';
    case 'unrecognized_keys':
      return 'notAllowed';
    default:
      return null;
  }
}
