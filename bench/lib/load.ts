import autocannon, { type RequestSpec } from 'autocannon';

/** One autocannon run, driven from this process, with the figures the bench reports. */

export interface FireOptions {
  url: string;
  connections: number;
  requests: RequestSpec[];
  verify?: (body: string) => boolean;
  /** Run for this long... */
  durationSeconds?: number;
  /** ...or until exactly this many responses arrived (every request's work is then finished). */
  amount?: number;
  /** A run still going after this long is stopped and marked `stoppedEarly`. */
  hardStopMs: number;
}

export interface LoadResult {
  /** Responses received, of any status. */
  responses: number;
  /** From the first request to the last response. */
  seconds: number;
  requestsPerSecond: number;
  latencyMs: { p50: number; p97_5: number; p99: number; mean: number; max: number };
  errors: number;
  timeouts: number;
  non2xx: number;
  mismatches: number;
  stoppedEarly: boolean;
}

export async function fire(options: FireOptions): Promise<LoadResult> {
  const startedAt = performance.now();
  let lastResponseAt = startedAt;
  const instance = autocannon({
    url: options.url,
    connections: options.connections,
    ...(options.amount !== undefined ? { amount: Math.max(options.amount, options.connections) } : { duration: options.durationSeconds ?? 1 }),
    // Short samples: in amount mode the run ends on the next sample tick.
    sampleInt: 100,
    timeout: Math.ceil(options.hardStopMs / 1000),
    requests: options.requests,
    ...(options.verify ? { verifyBody: options.verify } : {}),
  });
  instance.on('response', () => {
    lastResponseAt = performance.now();
  });
  let stoppedEarly = false;
  const guard = setTimeout(() => {
    stoppedEarly = true;
    instance.stop();
  }, options.hardStopMs);
  try {
    const result = await instance;
    const responses = result.requests.total;
    const seconds = Math.max((lastResponseAt - startedAt) / 1000, 1e-3);
    return {
      responses,
      seconds,
      requestsPerSecond: responses / seconds,
      latencyMs: {
        p50: result.latency.p50,
        p97_5: result.latency.p97_5,
        p99: result.latency.p99,
        mean: result.latency.mean,
        max: result.latency.max,
      },
      errors: result.errors,
      timeouts: result.timeouts,
      non2xx: result.non2xx,
      mismatches: result.mismatches,
      stoppedEarly,
    };
  } finally {
    clearTimeout(guard);
  }
}

/** A body check that keeps the first body it refused (its first 600 characters), for the report. */
export function keepingFirstWrong(verify: (body: string) => boolean): { verify: (body: string) => boolean; firstWrong(): string | undefined } {
  let first: string | undefined;
  return {
    verify(body) {
      const ok = verify(body);
      if (!ok && first === undefined) first = body.slice(0, 600);
      return ok;
    },
    firstWrong: () => first,
  };
}
