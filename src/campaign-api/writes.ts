import type { CampaignStatus, UnknownEnumValue } from './enums.js';
import { BusinessError } from './errors.js';
import type { OperationName } from './operations.js';

/** The operations that change something at the backend. */
export const WRITE_OPERATIONS = ['create', 'update', 'start', 'stop', 'redeem', 'addPins'] as const satisfies readonly OperationName[];
export type WriteOperation = (typeof WRITE_OPERATIONS)[number];

const WRITES: ReadonlySet<OperationName> = new Set(WRITE_OPERATIONS);

export function isWrite(name: OperationName): name is WriteOperation {
  return WRITES.has(name);
}

/**
 * Refusals of a write that concern the caller's own campaign, and whose answer carries the
 * status it is in. Not so failMerchant: the campaign is another partner's, and its status is
 * that partner's to know.
 */
const OWN_CAMPAIGN_REFUSALS: ReadonlySet<string> = new Set(['failPin', 'failFinished', 'failModerator']);

/**
 * - `done`: the backend answered that the write happened;
 * - `refused`: it answered with a business error: nothing changed;
 * - `unknown`: the call failed otherwise. A write whose answer was lost (a timeout, a reset, a
 *   5xx) may have happened; a few of these never left (an open circuit, a full bulkhead, a
 *   refused token), and they are told alike, as acting on a write that did not happen costs a
 *   listener less than missing one that did.
 */
export type WriteOutcome = 'done' | 'refused' | 'unknown';

/**
 * What one write through the client did, as far as its answer tells. The partner token is there
 * for listeners that act as that partner (a feed is rebuilt with it); it never leaves the
 * process, and it is not among the event's own fields, so that a log line, a JSON or an
 * `inspect` of an event holds no token.
 */
export class CampaignWrite {
  readonly #token: string;

  constructor(
    readonly operation: WriteOperation,
    token: string,
    readonly outcome: WriteOutcome,
    /**
     * The campaign written, as the answer names it, else the request; of a refusal, only a
     * campaign of the caller's own (the one it was refused for the state of).
     */
    readonly campaignId: number | undefined,
    /**
     * The status the write left the campaign in, when the answer tells it: a write answered with
     * the campaign's status, or a refusal for the state of the caller's own campaign.
     */
    readonly status: CampaignStatus | UnknownEnumValue | undefined,
  ) {
    this.#token = token;
  }

  /** The token the write was made with. */
  get token(): string {
    return this.#token;
  }
}

export type WriteListener = (write: CampaignWrite) => void;

export interface WriteEvents {
  /**
   * Calls `listener` after every write through the client ends, once, before the caller of the
   * write gets its answer or error. Returns what stops it.
   */
  onWrite(listener: WriteListener): () => void;
}

type Answer = { ymCampaignId?: unknown; campaignStatus?: CampaignStatus | UnknownEnumValue };

/**
 * The client's write events. Listeners are called synchronously, in the order they subscribed,
 * when a write's call settles and before the promise its caller awaits does: what must be done
 * before the answer is written (deliver a status to this instance's watchers, mark a feed for
 * rebuilding) is done by the time the caller goes on, without the answer waiting for what takes
 * longer (a feed rebuild, a message over Redis). A listener starts that longer work itself and
 * keeps track of it for its own shutdown; nothing a listener does or throws changes the write's
 * result.
 */
export class WriteAnnouncer implements WriteEvents {
  /** Entries rather than the functions: the same function subscribed twice is called twice, and each stop ends one. */
  // bounded: the listeners the composition root registers.
  readonly #listeners = new Set<{ listener: WriteListener }>();

  onWrite(listener: WriteListener): () => void {
    const entry = { listener };
    this.#listeners.add(entry);
    return () => {
      this.#listeners.delete(entry);
    };
  }

  /** `call`, settling as it does, once its write was told to every listener. */
  announce<T>(name: WriteOperation, token: string, request: unknown, call: Promise<T>): Promise<T> {
    return call.then(
      (value) => {
        const answer = value as Answer;
        const id = typeof answer.ymCampaignId === 'number' ? answer.ymCampaignId : requestedId(request);
        this.#emit(new CampaignWrite(name, token, 'done', id, answer.campaignStatus));
        return value;
      },
      (error: unknown) => {
        if (error instanceof BusinessError) {
          const own = error.current && OWN_CAMPAIGN_REFUSALS.has(error.code) ? error.current : undefined;
          this.#emit(new CampaignWrite(name, token, 'refused', own?.ymCampaignId, own?.campaignStatus));
        } else {
          this.#emit(new CampaignWrite(name, token, 'unknown', requestedId(request), undefined));
        }
        throw error;
      },
    );
  }

  #emit(write: CampaignWrite): void {
    for (const { listener } of this.#listeners) {
      try {
        listener(write);
      } catch (error) {
        // A broken listener must neither fail the write nor keep the others from hearing of it.
        process.emitWarning(`campaign-api write listener threw: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
  }
}

function requestedId(request: unknown): number | undefined {
  const id = (request as { ymCampaignId?: unknown } | null | undefined)?.ymCampaignId;
  return typeof id === 'number' ? id : undefined;
}
