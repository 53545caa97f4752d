import { brotliCompress, constants, gzip } from 'node:zlib';
import { rememberedChoices } from './header-choices.js';

/**
 * Content codings of answers: brotli or gzip when the client's `Accept-Encoding` admits one and
 * the body is worth it, the body as it is otherwise. Each coding is a representation of its own,
 * with a strong ETag of its own (`"<validator>-br"`), so an HTTP cache holding several never mixes
 * them up, and `Vary: Accept-Encoding` says so.
 */

export type Coding = 'br' | 'gzip' | 'identity';

/**
 * Bodies shorter than this go as they are: a few hundred bytes fit the first packets anyway, and
 * compressing them costs more than the bytes it saves.
 */
export const COMPRESSION_THRESHOLD_BYTES = 1024;

/**
 * The part of an `Accept-Encoding` header that is read: a real client's lists a few codings; a
 * longer one (as long as a client may make its headers) is read no further, so its cost is bounded.
 */
const READ_AT_MOST = 1024;

/**
 * Brotli's default quality (11) is meant for files compressed once; an answer is compressed while
 * its client waits. Low qualities of brotli already beat gzip on JSON, at a CPU cost close to
 * gzip's default level, which is the level used for gzip.
 */
const BROTLI_QUALITY = 4;
const GZIP_LEVEL = 6;

const QVALUE = /^\s*q\s*=\s*(0(?:\.\d{0,3})?|1(?:\.0{0,3})?)\s*$/i;

function choose(header: string): Coding {
  const text = header.length > READ_AT_MOST ? header.slice(0, READ_AT_MOST) : header;
  const q: Record<string, number> = {};
  let lowest = 1;
  for (const part of text.split(',')) {
    const [name, ...params] = part.split(';');
    const coding = name!.trim().toLowerCase();
    if (!coding || Object.hasOwn(q, coding)) continue;
    let quality = 1;
    for (const param of params) {
      if (!/^\s*q\s*=/i.test(param)) continue;
      const value = QVALUE.exec(param)?.[1];
      // A quality that is not one makes the coding not acceptable: never send what may not be understood.
      quality = value === undefined ? 0 : Number(value);
    }
    q[coding] = quality;
    lowest = Math.min(lowest, quality);
  }
  const star = q['*'];
  const br = q.br ?? star ?? 0;
  const gz = q.gzip ?? q['x-gzip'] ?? star ?? 0;
  // Unnamed, identity stands behind every coding listed (as most servers read it): a client that
  // lists gzip alone wants gzip.
  const identity = q.identity ?? star ?? lowest;
  const best = Math.max(br, gz);
  if (best <= 0 || identity > best) return 'identity';
  return br === best ? 'br' : 'gzip';
}

const chosen = rememberedChoices(choose);

/** The coding an answer goes in, from the request's `Accept-Encoding`: brotli on a tie with gzip. */
export function codingFor(acceptEncoding: string | string[] | undefined): Coding {
  const header = Array.isArray(acceptEncoding) ? acceptEncoding.join(',') : acceptEncoding;
  return header ? chosen(header) : 'identity';
}

/** The ETag of a coding of the body whose ETag is `etag` (strong, as each coding's bytes are fixed). */
export function codedEtag(etag: string, coding: Coding): string {
  if (coding === 'identity') return etag;
  return etag.endsWith('"') ? `${etag.slice(0, -1)}-${coding}"` : `${etag}-${coding}`;
}

export function compress(bytes: Buffer, coding: 'br' | 'gzip'): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const done = (error: Error | null, result: Buffer) => (error ? reject(error) : resolve(result));
    if (coding === 'gzip') gzip(bytes, { level: GZIP_LEVEL }, done);
    else
      brotliCompress(
        bytes,
        {
          params: {
            [constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY,
            [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
            [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
          },
        },
        done,
      );
  });
}

/**
 * Room a body's compressed copies may take beside it: each is kept only when at most a quarter of
 * the body (JSON of any size worth compressing shrinks well below that), so both together take at
 * most half. A body that shrinks less is compressed again for each request.
 */
export const keptCopiesAllowance = (bodyBytes: number): number => Math.ceil(bodyBytes / 2);

type Copies = Partial<Record<'br' | 'gzip', Buffer | Promise<Buffer>>>;

/** Compressed copies of bodies sent again as they are (remembered answers), for as long as each body is kept. */
const kept = new WeakMap<object, Copies>();

/**
 * `bytes` in `coding`: compressed once and kept with `owner` (an object that lives as long as the
 * body, such as a remembered answer), or compressed for this request alone when there is none.
 */
export function coded(bytes: Buffer, coding: 'br' | 'gzip', owner?: object): Buffer | Promise<Buffer> {
  if (!owner) return compress(bytes, coding);
  let copies = kept.get(owner);
  if (!copies) kept.set(owner, (copies = {}));
  const found = copies[coding];
  if (found) return found;
  const copying = compress(bytes, coding).then(
    (result) => {
      if (result.length * 4 <= bytes.length) copies[coding] = result;
      else delete copies[coding];
      return result;
    },
    (error: unknown) => {
      delete copies[coding];
      throw error;
    },
  );
  // Requests for the same body while it is compressed wait for that one compression.
  copies[coding] = copying;
  return copying;
}
