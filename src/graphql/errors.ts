import { GraphQLError, Kind, print, type ASTNode, type GraphQLErrorOptions, type GraphQLFormattedError } from 'graphql';
import { stackless } from '../errors/stackless.js';
import { QUOTE_LIMIT, quote, shorten } from '../text/received-value.js';

/** `extensions.code` of the top-level errors this API raises itself. */
export const ErrorCode = {
  UNAUTHENTICATED: 'UNAUTHENTICATED',
  BACKEND_UNAVAILABLE: 'BACKEND_UNAVAILABLE',
  BACKEND_BAD_RESPONSE: 'BACKEND_BAD_RESPONSE',
  /** The backend refused a read with a business error where none was expected. */
  BACKEND_REJECTED: 'BACKEND_REJECTED',
  /** The backend, or a proxy in front of it, refused this request with a 4xx and no error code. */
  BACKEND_REFUSED: 'BACKEND_REFUSED',
  /** A field argument out of its bounds (`first`, `after`, `ids`, `locale`). */
  BAD_USER_INPUT: 'BAD_USER_INPUT',
  /** The request was cancelled (the client went away, or the request's time ran out). */
  REQUEST_CANCELLED: 'REQUEST_CANCELLED',
  INTERNAL_SERVER_ERROR: 'INTERNAL_SERVER_ERROR',
} as const;

/**
 * An error this API tells a client about its request (a refusal, a bad argument, a field that
 * failed), made without a stack (errors/stackless.ts): a flood of refused requests costs what
 * refusing takes, not a stack captured twice per refusal (graphql-js captures one of its own).
 * Given an `originalError`, the error keeps that one's stack, as graphql-js does.
 */
export function clientError(message: string, options?: GraphQLErrorOptions): GraphQLError {
  return stackless(() => new GraphQLError(message, options));
}

/**
 * A value the backend returned that an output scalar cannot represent (a colour that is not a
 * colour). Thrown from scalar serialisation, so the field fails as a bad backend answer rather
 * than as an internal error.
 */
export class BadBackendValueError extends Error {
  constructor(readonly scalar: string, detail: string) {
    super(`the campaign API returned a value the ${scalar} type cannot represent: ${detail}`);
    this.name = 'BadBackendValueError';
  }
}

/** Why a request has no partner token: it sent no Authorization header, or one that is not "Bearer <token>". */
export type TokenProblem = 'missing' | 'malformed';

export function noTokenError(problem: TokenProblem): GraphQLError {
  return clientError(
    problem === 'malformed'
      ? 'The Authorization header is malformed: send it as "Bearer <token>", a single token without spaces.'
      : 'A partner token is required: send it as the Authorization header, "Bearer <token>".',
    { extensions: { code: ErrorCode.UNAUTHENTICATED } },
  );
}

/** A field argument outside its contract; the message names the argument and what came. */
export function badArgument(argument: string, message: string): GraphQLError {
  return clientError(`Argument "${argument}" ${message}`, {
    extensions: { code: ErrorCode.BAD_USER_INPUT, argument },
  });
}

/**
 * The error a resolver threw, out of graphql-js's located wrapper. Duck-typed rather than
 * `instanceof GraphQLError` (what Apollo's unwrapResolverError does), so it holds even when two
 * copies of graphql are loaded (CJS and ESM, as under a bundler or test runner).
 */
function unwrapResolverError(error: unknown): unknown {
  if (error instanceof Error && 'path' in error && error.path && 'originalError' in error && error.originalError) {
    return error.originalError;
  }
  return error;
}

/**
 * An error raised with the HTTP status to answer in `extensions.http` (the convention Apollo
 * Server documents for setting a status from an error, which this server's own rules follow
 * too): a 4xx there is the client's mistake, whatever code it lacks.
 */
function isClientMistake(error: unknown): boolean {
  const status = (error as { extensions?: { http?: { status?: unknown } } } | undefined)?.extensions?.http?.status;
  return typeof status === 'number' && status >= 400 && status < 500;
}

function withoutStacktrace(formatted: GraphQLFormattedError): GraphQLFormattedError {
  if (!formatted.extensions || !('stacktrace' in formatted.extensions)) return formatted;
  const { stacktrace: _dropped, ...extensions } = formatted.extensions;
  return { ...formatted, extensions };
}

const LITERAL_KINDS: ReadonlySet<string> = new Set([Kind.STRING, Kind.INT, Kind.FLOAT, Kind.ENUM, Kind.LIST, Kind.OBJECT]);
/** One unit of quoted text: an escape sequence, or a character. */
const UNIT = /\\u[0-9a-fA-F]{4}|\\[^]|[^]/uy;
/** What a message is made of, outside quotes: spaces, a quote, or a run of anything else (a word, a name, a value written bare). */
const TOKEN = /\s+|"|[^\s"]+/g;
/** graphql-js's syntax errors end with the unexpected token: its kind, then its text raw in quotes. */
const SYNTAX = /^(Syntax Error: .*?\b(?:Name|String|BlockString|Int|Float) )"([^]*)"(\.?)$/;

/**
 * The longest message an error leaves with, in characters, whoever wrote it: this API's own
 * messages stay well under it, so only a message that echoes what it received is cut.
 */
export const MESSAGE_LIMIT = 500;

/** The end of the first `count` units of `text` from `start`, at most `end`. */
function unitsEnd(text: string, start: number, end: number, count: number): number {
  UNIT.lastIndex = start;
  for (let i = 0; i < count && UNIT.lastIndex < end; i++) if (!UNIT.exec(text)) break;
  return Math.min(UNIT.lastIndex, end);
}

/** The index of the quote that closes the span opened at `open` (one no backslash escapes), or -1. */
function closingQuote(text: string, open: number): number {
  for (let at = text.indexOf('"', open + 1); at >= 0; at = text.indexOf('"', at + 1)) {
    let backslashes = 0;
    while (text.charCodeAt(at - 1 - backslashes) === 0x5c) backslashes++;
    if (backslashes % 2 === 0) return at;
  }
  return -1;
}

/**
 * `text[from, to)` as is when it holds at most 40 units (or 40 and "…": cut already), else its
 * first 40 and "…".
 */
function cut(text: string, from: number, to: number): string {
  const end = unitsEnd(text, from, to, QUOTE_LIMIT);
  if (end === to || text.slice(end, to) === '…') return text.slice(from, to);
  return `${text.slice(from, end)}…`;
}

/** At most `MESSAGE_LIMIT` characters (never half of one), then "…". */
function capped(message: string): string {
  if (message.length <= MESSAGE_LIMIT) return message;
  const last = message.charCodeAt(MESSAGE_LIMIT - 1);
  return `${message.slice(0, last >= 0xd800 && last <= 0xdbff ? MESSAGE_LIMIT - 1 : MESSAGE_LIMIT)}…`;
}

/**
 * Every quoted span and every run of text without a space or quote cut to 40 units and "…", the
 * whole to `MESSAGE_LIMIT`. One pass that stops once the limit is reached, and skips what it cuts
 * without looking at it character by character: a message of megabytes costs about as much as
 * finding its quotes.
 */
function cutEchoes(message: string): string {
  let out = '';
  TOKEN.lastIndex = 0;
  for (let token = TOKEN.exec(message); token !== null && out.length <= MESSAGE_LIMIT; token = TOKEN.exec(message)) {
    const at = token.index;
    const close = token[0] === '"' ? closingQuote(message, at) : -1;
    if (close >= 0) {
      out += `"${cut(message, at + 1, close)}"`;
      TOKEN.lastIndex = close + 1;
    } else {
      out += token[0].length > QUOTE_LIMIT ? cut(message, at, at + token[0].length) : token[0];
    }
  }
  return capped(out);
}

/**
 * What a message echoes of the request, cut short (SECURITY.md), whatever wrote the message:
 * graphql-js writes the unexpected token of a syntax error, a literal of the wrong type and
 * every name it quotes whole, and a scalar (graphql-scalars' among them) writes the value it
 * refuses as it likes, bare. So every quoted span and every run of text without a space or a
 * quote is cut to 40 characters and "…", and the whole message to `MESSAGE_LIMIT`: no scalar, rule
 * or library added later can send back more than a short prefix of anything it received. The
 * literals an error points at are first cut as a quote would cut them, so such messages still
 * read well.
 */
export function boundEchoes(message: string, nodes: readonly ASTNode[] | undefined): string {
  const syntax = SYNTAX.exec(message);
  if (syntax) return capped(`${cutEchoes(syntax[1]!)}${quote(syntax[2]!)}${syntax[3]}`);
  let out = message;
  for (const node of nodes ?? []) {
    // A string as graphql-js prints it is a quoted span like any other, cut below; a block string
    // is not, and other literals are cut whole, as a quote would cut them.
    if (node.kind !== Kind.STRING || node.block) {
      const literal = literalOf(node);
      if (literal && out.includes(literal.printed)) out = out.replaceAll(literal.printed, () => literal.short);
    }
    // A scalar's own reason may write a string it refuses bare, without quotes.
    if (node.kind === Kind.STRING && node.value.length > QUOTE_LIMIT) out = withoutCopies(out, node.value);
  }
  return cutEchoes(out);
}

/** Every copy of a received string in a message, bare or in plain quotes, as its quote. */
function withoutCopies(message: string, value: string): string {
  let at = message.indexOf(value);
  if (at < 0) return message;
  const short = quote(value);
  let out = '';
  let from = 0;
  for (; at >= 0; at = message.indexOf(value, from)) {
    const quoted = at > from && message[at - 1] === '"' && message[at + value.length] === '"';
    out += message.slice(from, quoted ? at - 1 : at) + short;
    from = at + value.length + (quoted ? 1 : 0);
  }
  return out + message.slice(from);
}

/**
 * Literals as graphql-js prints them into a message (its internal printForError), with their
 * short form; undefined for a short one. Made once per node: every error about a literal points
 * at it (a missing field of an input object, each of them), and printing a long one is costly.
 */
const literals = new WeakMap<ASTNode, { printed: string; short: string } | null>();
function literalOf(node: ASTNode): { printed: string; short: string } | undefined {
  if (!LITERAL_KINDS.has(node.kind)) return undefined;
  let literal = literals.get(node);
  if (literal === undefined) {
    const printed = print(node, { maxIndentDepth: 100 });
    literal = printed.length <= QUOTE_LIMIT ? null : { printed, short: node.kind === Kind.STRING ? quote(node.value) : shorten(printed) };
    literals.set(node, literal);
  }
  return literal ?? undefined;
}

function bounded(formatted: GraphQLFormattedError, error: unknown): GraphQLFormattedError {
  const nodes = error instanceof Error && 'nodes' in error ? (error as GraphQLError).nodes : undefined;
  const message = boundEchoes(formatted.message, nodes);
  return message === formatted.message ? formatted : { ...formatted, message };
}

/** What a failure of something the API depends on means to a client: its message and extensions. */
export interface ErrorDescription {
  message: string;
  extensions: Record<string, unknown>;
}

/**
 * Says what an error a resolver threw means to a client, or undefined when the engine does not
 * know it (it then leaves as an opaque internal error). The domain modules that call a backend
 * describe its failures; the engine describes only its own.
 */
export type ErrorDescriber = (error: unknown) => ErrorDescription | undefined;

/** The engine's own: a value an output scalar cannot represent is a bad answer from the backend. */
function describeEngineError(error: unknown): ErrorDescription | undefined {
  if (error instanceof BadBackendValueError) {
    return { message: `The backend returned a value the ${error.scalar} type cannot represent.`, extensions: { code: ErrorCode.BACKEND_BAD_RESPONSE, reason: 'value' } };
  }
  return undefined;
}

export interface ErrorFormatter {
  /**
   * ApolloServer's `formatError`: described failures get their stable code, errors that already
   * carry a code (validation, limits, bad arguments) pass through, and anything else becomes an
   * opaque internal error. Stack traces never leave, and every message leaves with what it echoes
   * of the request cut short (`boundEchoes`).
   */
  formatError(formatted: GraphQLFormattedError, error: unknown): GraphQLFormattedError;
  /**
   * What the client sees of a GraphQLError: a missing code reads INTERNAL_SERVER_ERROR, an
   * `extensions.http` (the status the server answers with) is the server's own and goes, then
   * `formatError`. Every path formats its errors here, whichever executor or rule raised them,
   * Apollo's included (its `formatError` option hands the error over): what a client sees never
   * depends on how Apollo itself shapes an error before that.
   */
  formatGraphQLError(error: GraphQLError): GraphQLFormattedError;
}

/** One formatter for the whole process, with the descriptions of the failures the domains know. */
export function createErrorFormatter(...describers: ErrorDescriber[]): ErrorFormatter {
  const all = [describeEngineError, ...describers];
  const describe = (error: unknown) => {
    for (const describer of all) {
      const described = describer(error);
      if (described) return described;
    }
    return undefined;
  };

  function classified(formatted: GraphQLFormattedError, error: unknown): GraphQLFormattedError {
    const original = unwrapResolverError(error);
    const known = describe(original);
    const position = {
      ...(formatted.locations ? { locations: formatted.locations } : {}),
      ...(formatted.path ? { path: formatted.path } : {}),
    };
    if (known) return { message: known.message, ...position, extensions: known.extensions };
    const code = formatted.extensions?.code;
    if (code === ErrorCode.INTERNAL_SERVER_ERROR && isClientMistake(error)) {
      return withoutStacktrace({ ...formatted, extensions: { ...formatted.extensions, code: 'BAD_REQUEST' } });
    }
    if (typeof code === 'string' && code !== ErrorCode.INTERNAL_SERVER_ERROR) return withoutStacktrace(formatted);
    return { message: 'Internal server error.', ...position, extensions: { code: ErrorCode.INTERNAL_SERVER_ERROR } };
  }

  const formatError = (formatted: GraphQLFormattedError, error: unknown) => bounded(classified(formatted, error), error);

  return {
    formatError,
    formatGraphQLError(error) {
      const formatted = error.toJSON();
      const { http: _http, ...extensions } = formatted.extensions ?? {};
      return formatError({ ...formatted, extensions: { ...extensions, code: extensions.code ?? ErrorCode.INTERNAL_SERVER_ERROR } }, error);
    },
  };
}
