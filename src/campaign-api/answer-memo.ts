import { BoundedMemory } from '../bounded/index.js';
import { interpretResponse, type Verdict } from './envelope.js';
import type { OperationName } from './operations.js';
import { isWrite } from './writes.js';

/** One read's last answer: what came over the wire, and the verdict it was checked into. */
interface Remembered {
  status: number;
  text: string;
  verdict: Verdict<OperationName>;
}

/**
 * What the memory counts an entry as: the key and the text as UTF-16 strings, the parsed value as
 * about as large again as its text, and the entry's own objects.
 */
const sizeOf = (entry: Remembered, key: string): number => 2 * key.length + 4 * entry.text.length + 200;

/**
 * The verdict on each read's last answer (envelope.ts `interpretResponse`), kept with the text it
 * came from: when a read's answer is, byte for byte, the text the same read was answered with
 * before, its verdict is that same frozen value instead of a new parse and check of the same text.
 *
 * A dashboard reads the same campaigns over and over, and they rarely change between two reads.
 * Parsing and checking each answer made a new object graph per campaign per request, held until
 * the request answered: under load, long enough to outlive a young-generation collection, so most
 * of it was copied and promoted. That was the largest part of what a list of cards or of ids left
 * to the garbage collector. A remembered value is made once and lives in the old generation.
 *
 * The verdict is a function of the text alone, and the text is compared whole: an answer that
 * differs in any byte (a campaign changed, another partner's different answer to the same request)
 * is parsed and checked as before, and then remembered in its turn. So a caller only ever gets the
 * value its own answer's text makes, whoever's answer it was first made from; nothing of one
 * partner's answers reaches another that was not answered the very same text. The key is the
 * operation and its request body, never the token.
 *
 * Only reads are remembered (a write's answer is about one change) and only their successes. The
 * value is deep-frozen before it is shared, so no reader can change what another is handed. The
 * memory is bounded in bytes (`maxBytes`); 0 turns it off, every answer then parsed and checked.
 */
export class AnswerMemo {
  readonly #memory: BoundedMemory<string, Remembered> | undefined;

  constructor(maxBytes: number) {
    // An entry may take an eighth of the whole: one large answer (all pins of a campaign) does not push out every other.
    this.#memory = maxBytes > 0 ? new BoundedMemory<string, Remembered>({ maxBytes, sizeOf, maxEntryBytes: Math.ceil(maxBytes / 8) }) : undefined;
  }

  /** The verdict on `text`, answered with HTTP `status` to operation `name` sent with `request` (its JSON body). */
  verdictOf<N extends OperationName>(name: N, request: string, status: number, text: string): Verdict<N> {
    const memory = this.#memory;
    if (memory === undefined || isWrite(name)) return interpretResponse(name, status, text);
    const key = `${name} ${request}`;
    const kept = memory.get(key);
    if (kept !== undefined && kept.status === status && kept.text === text) return kept.verdict as Verdict<N>;
    const verdict = interpretResponse(name, status, text);
    if (verdict.kind === 'success') memory.set(key, { status, text, verdict: deepFreeze(verdict) });
    return verdict;
  }
}

/** Freezes `value` and everything it holds: JSON data, so plain objects and arrays without cycles. */
function deepFreeze<T>(value: T): T {
  if (typeof value !== 'object' || value === null || Object.isFrozen(value)) return value;
  Object.freeze(value);
  for (const inner of Object.values(value)) deepFreeze(inner);
  return value;
}
