import { DEMO_TOKENS } from '../../src/emulator/index.js';

export const DEMO_APP_KEY = 'demo-app-key';
export const DEMO_APP = { [DEMO_APP_KEY]: { name: 'Demo app', partnerTokens: [DEMO_TOKENS.store, DEMO_TOKENS.aggregator] } };

export interface Answer {
  status: number;
  headers: Record<string, string>;
  text: string;
  body: any;
}

async function answer(response: Response): Promise<Answer> {
  const text = await response.text();
  let body: any;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    body = undefined;
  }
  return { status: response.status, headers: Object.fromEntries(response.headers), text, body };
}

/** POST a GraphQL request with the given headers (an app key, a partner token, or none). */
export async function post(url: string, payload: Record<string, unknown>, headers: Record<string, string> = {}): Promise<Answer> {
  return answer(await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(payload) }));
}

/** GET with query parameters (documentId, variables as JSON, ...). */
export async function get(url: string, params: Record<string, string>, headers: Record<string, string> = {}): Promise<Answer> {
  return answer(await fetch(`${url}?${new URLSearchParams(params)}`, { headers }));
}

export const app = (key = DEMO_APP_KEY) => ({ 'x-app-key': key });
export const partner = (token: string) => ({ authorization: `Bearer ${token}` });

export const FEED = `query Feed($first: Int, $after: String, $categoryId: ID, $platform: PlatformInput, $locale: String) {
  offerFeed(first: $first, after: $after, categoryId: $categoryId, platform: $platform, locale: $locale) {
    totalCount
    nodes { id card { title discountLabel backgroundColor actionUrl } category { id name } }
    edges { cursor node { id } }
    pageInfo { hasNextPage endCursor }
    categories { category { id name } offerCount }
  }
}`;

/** Ids of a partner's STARTED campaigns, read through the partner API (the feed's reference). */
export async function startedIds(url: string, token: string): Promise<string[]> {
  const { body } = await post(url, { query: '{ campaigns(first: 100, status: STARTED) { nodes { id } } }' }, partner(token));
  return body.data.campaigns.nodes.map((n: { id: string }) => n.id);
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Feed builds counted from the emulator: one list read per partner per build (under 100 campaigns). */
export function listCalls(calls: Record<string, number>): number {
  return calls['campaigns/get-all-campaigns'] ?? 0;
}
