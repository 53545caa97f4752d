import type { CampaignApi } from '../campaign-api/api.js';
import { AbortedError, OPERATION_NAMES, UnauthenticatedError, type OperationName, type RequestOf, type ResponseOf } from '../campaign-api/index.js';
import { toldOfToken, type TokenGate } from './token-gate.js';
import { noTokenError, type TokenProblem } from '../graphql/errors.js';

/** The campaign API as one request's partner sees it: token and cancellation already bound. */
export type PartnerApi = {
  [N in OperationName]: (request: RequestOf<N>) => Promise<ResponseOf<N>>;
} & {
  /**
   * The request's place to start backend work (server/admission.ts): undefined when its calls may
   * go now or will not go at all (no token, or one refused lately), else a promise of it. Each call
   * asks for it anyway; a batch of calls asks once first.
   */
  admission(): Promise<void> | undefined;
};

interface Binding {
  api: CampaignApi;
  token: string | null;
  /** Read at call time: the request makes its AbortSignal only once something needs it. */
  signal: (() => AbortSignal) | undefined;
  /** Told about every call made, for the request's log line. */
  onCall: (() => void) | undefined;
  /** Why `token` is null. */
  tokenProblem: TokenProblem;
  /** Asked before each call (server/admission.ts): undefined to call now, else a promise of the request's place. */
  admit: (() => Promise<void> | undefined) | undefined;
  /** Whether a call with the token may go while the campaign API's view of it is not known (token-gate.ts). */
  gate: TokenGate | undefined;
}

type AnyCall = (token: string, request: unknown, options?: { signal?: AbortSignal }) => Promise<unknown>;

/**
 * One method per operation on the prototype, so binding a request costs one small object
 * rather than eleven closures: this runs for every GraphQL request.
 */
class BoundPartnerApi {
  /**
   * The gate found the token accepted lately, with time left, when this request asked for its
   * place or first called: its calls go at once.
   */
  accepted = false;
  constructor(readonly binding: Binding) {}

  admission(): Promise<void> | undefined {
    const { token, admit, gate } = this.binding;
    // Without a token no call is made: nothing to wait for.
    if (token === null || !admit) return undefined;
    if (gate && !this.accepted) {
      // Nor with a token refused lately: a request that will send nothing must not queue for a
      // place ahead of requests that will. An accepted one is noted, for the calls to go at once.
      const settled = gate.settled(token);
      if (settled === 'refused') return undefined;
      if (settled === 'accepted') this.accepted = true;
    }
    return admit();
  }
}
/** The call itself, once admitted (server/admission.ts): a request that left the queue makes none. */
function callNow(bound: BoundPartnerApi, name: OperationName, token: string, request: unknown): Promise<unknown> {
  const waiting = bound.binding.admit?.();
  if (!waiting) return send(bound, name, token, request);
  return waiting.then(
    () => send(bound, name, token, request),
    (error: unknown) => Promise.reject(new AbortedError(name, 'caller', { cause: error })),
  );
}

function send(bound: BoundPartnerApi, name: OperationName, token: string, request: unknown): Promise<unknown> {
  const { api, signal, onCall } = bound.binding;
  onCall?.();
  return (api[name] as AnyCall).call(api, token, request, signal ? { signal: signal() } : undefined);
}

/** The call, telling the gate what it learns of the token. */
function callTelling(bound: BoundPartnerApi, name: OperationName, token: string, request: unknown, gate: TokenGate): Promise<unknown> {
  return callNow(bound, name, token, request).then(
    (answer) => {
      gate.after(token, toldOfToken({ ok: true }));
      return answer;
    },
    (error: unknown) => {
      gate.after(token, toldOfToken({ error }));
      throw error;
    },
  );
}

for (const name of OPERATION_NAMES) {
  Object.defineProperty(BoundPartnerApi.prototype, name, {
    value(this: BoundPartnerApi, request: unknown) {
      const { token, tokenProblem, gate } = this.binding;
      if (token === null) return Promise.reject(noTokenError(tokenProblem));
      // A token accepted lately, with time left, goes at once for the rest of the request: no
      // look at the verdicts, nor anything made per call, for each of a list's calls.
      if (!gate || this.accepted) return callNow(this, name, token, request);
      const entry = gate.before(token);
      if (entry === 'accepted') {
        this.accepted = true;
        return callNow(this, name, token, request);
      }
      if (entry === 'tell') return callTelling(this, name, token, request, gate);
      if (entry === 'refused') return Promise.reject(refusedLately(name));
      return entry.then((verdict) => (verdict === 'tell' ? callTelling(this, name, token, request, gate) : Promise.reject(refusedLately(name))));
    },
  });
}

/** A call not made: the campaign API refused the token moments ago, as it would now. */
const refusedLately = (operation: OperationName) => new UnauthenticatedError(operation, 401, 'the backend refused the partner token moments ago; no call was made');

/**
 * Binds the request's token and AbortSignal to every operation. Without a token every call
 * fails with UNAUTHENTICATED before anything is sent.
 */
export function bindPartnerApi(
  api: CampaignApi,
  token: string | null,
  signal?: () => AbortSignal,
  onCall?: () => void,
  tokenProblem: TokenProblem = 'missing',
  admit?: () => Promise<void> | undefined,
  gate?: TokenGate,
): PartnerApi {
  return new BoundPartnerApi({ api, token, signal, onCall, tokenProblem, admit, gate }) as unknown as PartnerApi;
}
