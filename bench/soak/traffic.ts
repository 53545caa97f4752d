import type { Backend } from './backend.js';
import type { Partner } from './partners.js';

/** What one request of the soak sends, and how its answer is judged and booked. */

export interface Answer {
  status: number;
  body: any;
  text: string;
}

export interface Stats {
  requests: number;
  byStatus: Record<string, number>;
  /** Top-level error codes (with their reason) and user error codes, by action. */
  codes: Record<string, number>;
  byAction: Record<string, number>;
  latenciesMs: number[];
  serverErrors: string[];
  leaks: string[];
  /** Answers that broke the API's own contract (a success without its data, an unknown shape). */
  anomalies: string[];
  /** Requests with at least one top-level error. */
  withErrors: number;
  /** Per backend phase (healthy or failing, when the answer came): requests, and those without any error. */
  byPhase: { healthy: { requests: number; clean: number }; failing: { requests: number; clean: number } };
  /** Whether the backend is in a failing phase now (set by the flapper). */
  failingNow: boolean;
}

export const newStats = (): Stats => ({
  requests: 0,
  byStatus: {},
  codes: {},
  byAction: {},
  latenciesMs: [],
  serverErrors: [],
  leaks: [],
  anomalies: [],
  withErrors: 0,
  byPhase: { healthy: { requests: 0, clean: 0 }, failing: { requests: 0, clean: 0 } },
  failingNow: false,
});

const bump = (counts: Record<string, number>, key: string) => (counts[key] = (counts[key] ?? 0) + 1);
const keep = (list: string[], entry: string) => list.length < 50 && list.push(entry);

export interface Context {
  bffUrl: string;
  backend: Backend;
  partners: Partner[];
  random: () => number;
  /** Unique suffixes for partnerCampaignIds, pins and transactions. */
  next(): number;
}

interface Action {
  name: string;
  weight: number;
  run(ctx: Context, p: Partner, stats: Stats): Promise<void>;
}

const pick = <T>(random: () => number, items: readonly T[]): T => items[Math.floor(random() * items.length)]!;

async function gql(ctx: Context, p: Partner, query: string, variables?: Record<string, unknown>): Promise<{ answer: Answer; ms: number }> {
  const started = performance.now();
  const response = await fetch(ctx.bffUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${p.token}` },
    body: JSON.stringify({ query, ...(variables ? { variables } : {}) }),
    signal: AbortSignal.timeout(60_000),
  });
  const text = await response.text();
  const ms = performance.now() - started;
  let body: any;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  return { answer: { status: response.status, body, text }, ms };
}

/** Books status, codes and latency, and checks what every answer must satisfy. */
function book(ctx: Context, p: Partner, action: string, answer: Answer, ms: number, stats: Stats): void {
  stats.requests++;
  stats.latenciesMs.push(ms);
  bump(stats.byStatus, String(answer.status));
  bump(stats.byAction, action);
  if (answer.status >= 500) keep(stats.serverErrors, `${action} as ${p.name}: HTTP ${answer.status} ${answer.text.slice(0, 300)}`);
  if (answer.body === undefined) keep(stats.anomalies, `${action}: not JSON: ${answer.text.slice(0, 200)}`);
  const phase = stats.byPhase[stats.failingNow ? 'failing' : 'healthy'];
  phase.requests++;
  if (answer.body?.errors?.length) stats.withErrors++;
  // Clean: no top-level error and no user error caused by the backend (refusals of foreign ids are answers).
  if (answer.status === 200 && !answer.body?.errors?.length && !/"code":"BACKEND_/.test(answer.text)) phase.clean++;
  for (const error of answer.body?.errors ?? []) {
    const code = String(error.extensions?.code ?? 'NO_CODE');
    bump(stats.codes, `${code}${error.extensions?.reason ? `/${error.extensions.reason}` : ''}`);
    if (code === 'INTERNAL_SERVER_ERROR') keep(stats.serverErrors, `${action} as ${p.name}: INTERNAL_SERVER_ERROR ${JSON.stringify(error).slice(0, 300)}`);
  }
  const data = answer.body?.data;
  if (data) {
    for (const payload of Object.values(data)) {
      for (const e of (payload as { userErrors?: { code: string }[] } | null)?.userErrors ?? []) bump(stats.codes, `userError ${e.code}`);
    }
  }
  for (const other of ctx.partners) {
    if (other === p) continue;
    for (const sentinel of other.sentinels) {
      if (answer.text.includes(sentinel)) keep(stats.leaks, `${action} as ${p.name} shows ${other.name}'s "${sentinel}": ${answer.text.slice(0, 300)}`);
    }
  }
}

function foreignIds(ctx: Context, p: Partner): number[] {
  const others = ctx.partners.filter((o) => o !== p);
  const owner = pick(ctx.random, others);
  return [...owner.initialIds];
}

function ownerOf(ctx: Context, id: number): Partner | undefined {
  return ctx.partners.find((o) => o.ids.has(id));
}

/** A campaign node a partner read: its id must not be another's, its domain must be one of its own. */
function checkNode(ctx: Context, p: Partner, node: any, where: string, stats: Stats): void {
  if (!node) return;
  const owner = ownerOf(ctx, typeof node.ymCampaignId === 'number' ? node.ymCampaignId : NaN);
  if (owner && owner !== p) keep(stats.leaks, `${where} as ${p.name} returned ${owner.name}'s campaign ${node.id}`);
  const domain = node.merchant?.domain;
  if (domain && !p.domains.has(domain)) keep(stats.leaks, `${where} as ${p.name} returned campaign ${node.id} of domain ${domain}`);
}

/** A timeout leaves a write's outcome open: the backend may have carried it out after the BFF gave up. */
const timedOut = (error: any) => error?.extensions?.code === 'BACKEND_UNAVAILABLE' && error.extensions.reason === 'timeout';

// `ymCampaignId` names the campaign in the partner's own records: the global id is opaque.
const CAMPAIGN_FIELDS = 'id ymCampaignId status merchant { domain }';

export const ACTIONS: Action[] = [
  {
    name: 'list',
    weight: 22,
    async run(ctx, p, stats) {
      const { answer, ms } = await gql(ctx, p, `{ campaigns(first: 50) { totalCount nodes { ${CAMPAIGN_FIELDS} } } }`);
      book(ctx, p, this.name, answer, ms, stats);
      for (const node of answer.body?.data?.campaigns?.nodes ?? []) checkNode(ctx, p, node, this.name, stats);
    },
  },
  {
    name: 'own campaign',
    weight: 15,
    async run(ctx, p, stats) {
      const id = pick(ctx.random, [...p.initialIds]);
      const { answer, ms } = await gql(ctx, p, `query ($id: ID!) { campaign(id: $id) { ${CAMPAIGN_FIELDS} stats { shows accepts redeems } card { title discountLabel } } }`, { id: String(id) });
      book(ctx, p, this.name, answer, ms, stats);
      checkNode(ctx, p, answer.body?.data?.campaign, this.name, stats);
    },
  },
  {
    name: 'foreign campaign',
    weight: 10,
    async run(ctx, p, stats) {
      const id = pick(ctx.random, foreignIds(ctx, p));
      const { answer, ms } = await gql(ctx, p, `query ($id: ID!) { campaign(id: $id) { ${CAMPAIGN_FIELDS} stats { shows } } }`, { id: String(id) });
      book(ctx, p, this.name, answer, ms, stats);
      const campaign = answer.body?.data?.campaign;
      if (campaign) keep(stats.leaks, `campaign(${id}) as ${p.name} returned another partner's campaign: ${JSON.stringify(campaign)}`);
    },
  },
  {
    name: 'campaignsByIds mixed',
    weight: 10,
    async run(ctx, p, stats) {
      const ids = [...[...p.initialIds].slice(0, 3), ...Array.from({ length: 3 }, () => pick(ctx.random, foreignIds(ctx, p)))];
      const { answer, ms } = await gql(ctx, p, `query ($ids: [ID!]!) { campaignsByIds(ids: $ids) { ${CAMPAIGN_FIELDS} } }`, { ids: ids.map(String) });
      book(ctx, p, this.name, answer, ms, stats);
      (answer.body?.data?.campaignsByIds ?? []).forEach((node: any, i: number) => {
        if (node && !p.ids.has(ids[i]!)) keep(stats.leaks, `campaignsByIds as ${p.name} returned foreign campaign ${ids[i]}`);
        checkNode(ctx, p, node, this.name, stats);
      });
    },
  },
  {
    name: 'categories',
    weight: 5,
    async run(ctx, p, stats) {
      const { answer, ms } = await gql(ctx, p, '{ categories { id name } }');
      book(ctx, p, this.name, answer, ms, stats);
    },
  },
  {
    name: 'createCampaign',
    weight: 10,
    async run(ctx, p, stats) {
      const partnerCampaignId = 10_000_000 + ctx.next();
      const input = {
        partnerCampaignId, categoryId: String(1 + (partnerCampaignId % 12)), type: 'PROMO', acceptUrl: `https://${p.domain}/new`,
        merchant: { domain: p.domain, logoSvgUrl: `https://${p.domain}/logo.svg`, logoPngUrl: `https://${p.domain}/logo.png`, name: 'Магазин нагрузки' },
        appearance: { backgroundColor: '#1A237E', fontColor: '#FFFFFF' }, description: 'Новая скидка', conditions: 'При заказе на сайте',
        discount: { type: 'PERCENT', amount: '7' }, fee: { type: 'PERCENT', amount: '3' },
      };
      const { answer, ms } = await gql(ctx, p, 'mutation ($input: CreateCampaignInput!) { createCampaign(input: $input) { campaign { id ymCampaignId status } userErrors { code message } } }', { input });
      book(ctx, p, this.name, answer, ms, stats);
      const payload = answer.body?.data?.createCampaign;
      if (payload?.campaign && payload.userErrors.length === 0) {
        p.creates.confirmed.add(partnerCampaignId);
        p.ids.add(payload.campaign.ymCampaignId);
      } else if (payload?.userErrors?.length) {
        p.creates.refused.add(partnerCampaignId);
      } else if (answer.body?.errors?.some(timedOut)) {
        p.creates.unknown.add(partnerCampaignId);
      } else if (answer.body?.errors?.length) {
        p.creates.refused.add(partnerCampaignId);
      } else {
        p.creates.unknown.add(partnerCampaignId);
        keep(stats.anomalies, `createCampaign answered neither a campaign nor errors: ${answer.text.slice(0, 200)}`);
      }
    },
  },
  {
    name: 'addPins',
    weight: 8,
    async run(ctx, p, stats) {
      const pins = Array.from({ length: 20 }, () => `${p.pinPrefix}${ctx.next()}`);
      const { answer, ms } = await gql(
        ctx,
        p,
        'mutation ($input: AddPinsInput!) { addPins(input: $input) { storedCount addedCount notStoredPins userErrors { code message } } }',
        { input: { campaignId: String(p.pinCampaign), pins } },
      );
      book(ctx, p, this.name, answer, ms, stats);
      const payload = answer.body?.data?.addPins;
      if (!payload) {
        // The campaign could not even be read: nothing was sent.
        for (const pin of pins) (answer.body?.errors?.length ? p.pins.refused : p.pins.unknown).add(pin);
        return;
      }
      const notStored = new Set<string>(payload.notStoredPins);
      const open = payload.userErrors.some((e: { code: string; message: string }) => e.code === 'BACKEND_UNAVAILABLE' && e.message.includes('(timeout)'));
      for (const pin of pins) {
        if (payload.userErrors.length === 0 || (!notStored.has(pin) && payload.storedCount > 0)) p.pins.confirmed.add(pin);
        else if (open && notStored.has(pin)) p.pins.unknown.add(pin);
        else p.pins.refused.add(pin);
      }
    },
  },
  {
    name: 'reportLead',
    weight: 7,
    async run(ctx, p, stats) {
      const { clickId } = await ctx.backend.admin<{ clickId: string }>('accept', { ymCampaignId: p.leadCampaign });
      const transactionId = `soak-${ctx.next()}`;
      const { answer, ms } = await gql(ctx, p, 'mutation ($input: ReportLeadInput!) { reportLead(input: $input) { lead { transactionId } userErrors { code message } } }', {
        input: { campaignId: String(p.leadCampaign), transactionId, clickId, campaignFee: '10.00', orderAmount: '990.00' },
      });
      book(ctx, p, this.name, answer, ms, stats);
      const payload = answer.body?.data?.reportLead;
      if (payload?.lead && payload.userErrors.length === 0) p.leads.confirmed.add(transactionId);
      else if (payload?.userErrors?.length) p.leads.refused.add(transactionId);
      // Redeem is retried: attempts that timed out may have stored it before a later one failed otherwise.
      else p.leads.unknown.add(transactionId);
    },
  },
  {
    name: 'start/stop own',
    weight: 5,
    async run(ctx, p, stats) {
      const candidates = [...p.initialIds].filter((id) => id !== p.pinCampaign && id !== p.leadCampaign);
      const id = pick(ctx.random, candidates);
      const mutation = ctx.random() < 0.5 ? 'startCampaign' : 'stopCampaign';
      const { answer, ms } = await gql(ctx, p, `mutation ($id: ID!) { ${mutation}(id: $id) { campaign { id ymCampaignId status } userErrors { code message } } }`, { id: String(id) });
      book(ctx, p, this.name, answer, ms, stats);
      const campaign = answer.body?.data?.[mutation]?.campaign;
      if (campaign && campaign.ymCampaignId !== id) keep(stats.anomalies, `${mutation}(${id}) answered campaign ${campaign.ymCampaignId} (${campaign.id})`);
    },
  },
  {
    name: 'foreign mutation',
    weight: 8,
    async run(ctx, p, stats) {
      const id = String(pick(ctx.random, foreignIds(ctx, p)));
      const which = Math.floor(ctx.random() * 4);
      const [field, query, variables] = [
        ['startCampaign', `mutation ($id: ID!) { startCampaign(id: $id) { campaign { id } userErrors { code } } }`, { id }],
        ['stopCampaign', `mutation ($id: ID!) { stopCampaign(id: $id) { campaign { id } userErrors { code } } }`, { id }],
        ['addPins', 'mutation ($input: AddPinsInput!) { addPins(input: $input) { campaign { id } storedCount userErrors { code } } }', { input: { campaignId: id, pins: [`${p.pinPrefix}INTRUDER`] } }],
        ['reportLead', 'mutation ($input: ReportLeadInput!) { reportLead(input: $input) { lead { transactionId } userErrors { code } } }', { input: { campaignId: id, transactionId: `intruder-${ctx.next()}`, clickId: 'intruder', campaignFee: '1.00' } }],
      ][which] as [string, string, Record<string, unknown>];
      const { answer, ms } = await gql(ctx, p, query, variables);
      book(ctx, p, `foreign ${field}`, answer, ms, stats);
      const payload = answer.body?.data?.[field];
      if (payload && (payload.campaign || payload.lead || payload.storedCount > 0 || payload.userErrors.length === 0)) {
        keep(stats.leaks, `${field} on foreign campaign ${id} as ${p.name} was not refused: ${JSON.stringify(payload).slice(0, 200)}`);
      }
    },
  },
];

const TOTAL_WEIGHT = ACTIONS.reduce((sum, a) => sum + a.weight, 0);

export function chooseAction(random: () => number): Action {
  let roll = random() * TOTAL_WEIGHT;
  for (const action of ACTIONS) {
    roll -= action.weight;
    if (roll < 0) return action;
  }
  return ACTIONS[ACTIONS.length - 1]!;
}
