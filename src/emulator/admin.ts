import type { IncomingMessage, ServerResponse } from 'node:http';
import { z } from 'zod';
import { PARSE_OPTIONS, formatFieldPath, text } from '../campaign-api/index.js';
import { AdminError } from './admin-error.js';
import type { Campaign } from './campaign.js';
import { faultRequest, type FaultRegistry } from './faults.js';
import { readBody, sendJson, TOO_LARGE } from './http-io.js';
import type { RequestLog } from './request-log.js';
import type { EmulatorState } from './state.js';
import { acceptOffer, moderateCampaign, showOffer } from './user-actions.js';

/** What the admin API works on, besides the state: faults and call counters of the server. */
export interface AdminContext {
  state: EmulatorState;
  faults: FaultRegistry;
  calls: Map<string, number>;
  /** The last calls with the trace context they carried. */
  requests: RequestLog;
  /** Everything back to the start: state, faults, call counters and the request log. */
  reset(): void;
}

const ADMIN_BODY_LIMIT = 1024 * 1024;

const idBody = z.object({ ymCampaignId: z.number().int().positive() }).strict();
const moderationBody = z
  .object({ mode: z.enum(['auto', 'manual']), delayMs: z.number().int().min(0).max(86_400_000).optional() })
  .strict();
const moderateBody = z
  .object({
    ymCampaignId: z.number().int().positive(),
    decision: z.enum(['approve', 'decline']),
    // Free text a partner may be shown: the same text rule as the campaign's own text.
    reason: text(1000, { multiline: true }).optional(),
  })
  .strict();
const clockBody = z
  .union([
    z.object({ advanceMs: z.number().int().min(0).max(100 * 365 * 86_400_000) }).strict(),
    z.object({ now: z.iso.datetime({ offset: true }) }).strict(),
  ])
  .meta({ description: '{advanceMs} or {now}' });
const partnerBody = z
  .object({ token: z.string().min(8).max(512).regex(/^\S+$/, 'must not contain white space'), kind: z.enum(['store', 'aggregator']) })
  .strict();

type Route = (ctx: AdminContext, body: unknown, url: URL) => unknown;

function parse<S extends z.ZodType>(schema: S, body: unknown): z.output<S> {
  const parsed = schema.safeParse(body, PARSE_OPTIONS);
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues.map((i) => `${formatFieldPath(i.path)}: ${i.message}`);
  throw new AdminError(400, problems.join('; '));
}

function campaign(ctx: AdminContext, ymCampaignId: number): Campaign {
  const found = ctx.state.campaigns.get(ymCampaignId);
  if (!found) throw new AdminError(404, `no campaign with ymCampaignId ${ymCampaignId}`);
  return found;
}

function clockAnswer(ctx: AdminContext) {
  return { now: new Date(ctx.state.now()).toISOString(), offsetMs: ctx.state.clock.offset };
}

const routes: Record<string, Partial<Record<string, Route>>> = {
  reset: {
    POST: (ctx) => {
      ctx.reset();
      return { reset: true, campaigns: ctx.state.campaigns.size };
    },
  },
  moderation: {
    GET: (ctx) => ctx.state.policy,
    POST: (ctx, body) => {
      const { mode, delayMs } = parse(moderationBody, body);
      ctx.state.setPolicy({ mode, delayMs: delayMs ?? ctx.state.policy.delayMs });
      return ctx.state.policy;
    },
  },
  moderate: {
    POST: (ctx, body) => {
      const { ymCampaignId, decision, reason } = parse(moderateBody, body);
      const c = campaign(ctx, ymCampaignId);
      moderateCampaign(ctx.state, c, decision, reason ?? null);
      return { ymCampaignId, campaignStatus: c.status, verdict: c.verdict };
    },
  },
  clock: {
    GET: (ctx) => clockAnswer(ctx),
    POST: (ctx, body) => {
      const request = parse(clockBody, body);
      try {
        if ('advanceMs' in request) ctx.state.clock.advance(request.advanceMs);
        else ctx.state.clock.setNow(Date.parse(request.now));
      } catch (error) {
        throw new AdminError(409, (error as Error).message);
      }
      ctx.state.tick();
      return clockAnswer(ctx);
    },
  },
  show: {
    POST: (ctx, body) => showOffer(ctx.state, campaign(ctx, parse(idBody, body).ymCampaignId)),
  },
  accept: {
    POST: (ctx, body) => acceptOffer(ctx.state, campaign(ctx, parse(idBody, body).ymCampaignId)),
  },
  faults: {
    GET: (ctx) => ({ faults: ctx.faults.list() }),
    POST: (ctx, body) => {
      ctx.faults.set(parse(faultRequest, body));
      return { faults: ctx.faults.list() };
    },
    DELETE: (ctx, _body, url) => {
      const operation = url.searchParams.get('operation') ?? undefined;
      const removed = ctx.faults.clear(operation);
      return { removed, faults: ctx.faults.list() };
    },
  },
  calls: {
    GET: (ctx) => ({ calls: Object.fromEntries(ctx.calls) }),
    DELETE: (ctx) => {
      ctx.calls.clear();
      return { calls: {} };
    },
  },
  requests: {
    GET: (ctx) => ({ requests: ctx.requests.list() }),
    DELETE: (ctx) => {
      ctx.requests.clear();
      return { requests: [] };
    },
  },
  partners: {
    POST: (ctx, body) => {
      const { token, kind } = parse(partnerBody, body);
      if (!ctx.state.registerPartner(token, kind)) throw new AdminError(409, 'a partner with this token exists already');
      return { registered: true, kind };
    },
  },
};

/** The admin API under /_emulator/ (src/emulator/README.md); answers `{error}` with 400/404/405/409. */
export async function handleAdmin(ctx: AdminContext, req: IncomingMessage, res: ServerResponse, name: string): Promise<void> {
  try {
    const methods = routes[name];
    if (!methods) {
      throw new AdminError(404, `no admin route /_emulator/${name}; routes are ${Object.keys(routes).map((r) => `/_emulator/${r}`).join(', ')}`);
    }
    const method = req.method ?? 'GET';
    const route = methods[method];
    if (!route) {
      throw new AdminError(405, `/_emulator/${name} takes ${Object.keys(methods).join(' or ')}, not ${method}`);
    }
    let body: unknown = {};
    if (method === 'POST') {
      const raw = await readBody(req, ADMIN_BODY_LIMIT);
      if (raw === TOO_LARGE) throw new AdminError(413, `admin bodies are at most ${ADMIN_BODY_LIMIT} bytes`);
      if (raw.length > 0) {
        try {
          body = JSON.parse(raw.toString('utf8'));
        } catch (error) {
          throw new AdminError(400, `the body is not valid JSON: ${(error as Error).message}`);
        }
      }
    }
    ctx.state.tick();
    const answer = route(ctx, body, new URL(req.url ?? '/', 'http://emulator'));
    sendJson(res, 200, JSON.stringify(answer));
  } catch (error) {
    if (!(error instanceof AdminError)) throw error;
    const headers: Record<string, string> = {};
    if (error.httpStatus === 405) headers.allow = Object.keys(routes[name] ?? {}).join(', ');
    sendJson(res, error.httpStatus, JSON.stringify({ error: error.message }), headers);
  }
}
