import { z } from 'zod';
import { operations, OPERATION_NAMES } from '../campaign-api/index.js';

export const FAULT_MODES = ['latency', 'http500', 'http4xx', 'reset', 'malformed', 'contract', 'error200', 'hang'] as const;
export type FaultMode = (typeof FAULT_MODES)[number];

const OPERATION_PATHS = OPERATION_NAMES.map((name) => operations[name].path);

export const faultRequest = z
  .object({
    mode: z.enum(FAULT_MODES),
    operation: z
      .string()
      .refine((p) => OPERATION_PATHS.includes(p), { message: `must be an operation path: ${OPERATION_PATHS.join(', ')}` })
      .optional(),
    probability: z.number().min(0).max(1).default(1),
    latencyMs: z.number().int().min(0).max(600_000).default(1000),
    code: z.string().min(1).max(100).default('incorrectData'),
    /** http4xx: the status of the refusal, answered without an envelope as a proxy or web server in front would. */
    httpStatus: z.number().int().min(400).max(499).default(400),
    /**
     * The operation is carried out first and only then does the answer fail: "the backend stored
     * it, then the answer was lost". Means nothing for latency, which always answers normally.
     */
    afterEffect: z.boolean().default(false),
  })
  .strict();

export type Fault = z.output<typeof faultRequest>;

const ANY = '*';

/**
 * Injected failures, at most one per operation path plus one for every operation; a later
 * fault for the same key replaces the earlier one, and a per-operation fault wins over the
 * catch-all.
 */
export class FaultRegistry {
  private readonly faults = new Map<string, Fault>();

  get active(): boolean {
    return this.faults.size > 0;
  }

  set(fault: Fault): void {
    this.faults.set(fault.operation ?? ANY, fault);
  }

  /** Removes one operation's fault, or all of them. Returns how many were removed. */
  clear(operation?: string): number {
    if (operation === undefined) {
      const n = this.faults.size;
      this.faults.clear();
      return n;
    }
    return this.faults.delete(operation) ? 1 : 0;
  }

  list(): Fault[] {
    return [...this.faults.values()];
  }

  /** The fault this call suffers, after the probability roll; undefined when it goes through. */
  pick(path: string, random: () => number = Math.random): Fault | undefined {
    const fault = this.faults.get(path) ?? this.faults.get(ANY);
    if (!fault) return undefined;
    if (fault.probability >= 1) return fault;
    return random() < fault.probability ? fault : undefined;
  }
}

/** Success envelopes whose payload breaks every response schema of the contract. */
export function contractBreakingBody(path: string): string {
  if (path === operations.getAllCampaigns.path) {
    return '{"status":"success","total":"many","campaigns":[{"campaignStatus":42}]}';
  }
  return '{"status":"success","result":{"ymCampaignId":"not-a-number","campaignStatus":42}}';
}

/** Cut off mid-value: not JSON at all. */
export const MALFORMED_BODY = '{"status":"success","result":{"ymCampaignId":';
