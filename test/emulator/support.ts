import { afterAll, beforeAll, beforeEach, expect } from 'vitest';
import { z } from 'zod';
import { errorEnvelope, operations, type OperationName } from '../../src/campaign-api/index.js';
import { DEMO_TOKENS, startEmulator, type EmulatorOptions, type RunningEmulator } from '../../src/emulator/index.js';

export const STORE = DEMO_TOKENS.store;
export const AGGREGATOR = DEMO_TOKENS.aggregator;
export const DAY = 86_400_000;

export interface Answer {
  status: number;
  headers: Headers;
  text: string;
  body: any;
}

/** Success payloads must parse with the contract and carry no field the contract does not name. */
function checkAgainstContract(name: OperationName, body: any): void {
  const op = operations[name];
  const payload = op.wrapping === 'top-level' ? (({ status: _s, ...rest }) => rest)(body) : body.result;
  const parsed = op.response.safeParse(payload);
  if (!parsed.success) throw new Error(`${name} answered outside the contract: ${z.prettifyError(parsed.error)}\n${JSON.stringify(body).slice(0, 500)}`);
  const shape = (op.response as unknown as z.ZodObject).shape;
  const unknown = Object.keys(payload).filter((k) => !(k in shape));
  if (unknown.length) throw new Error(`${name} answered fields the contract does not name: ${unknown.join(', ')}`);
  if (op.wrapping === 'result') {
    const extra = Object.keys(body).filter((k) => k !== 'status' && k !== 'result' && !(name === 'stop' && k === 'errors'));
    if (extra.length) throw new Error(`${name} success envelope has unexpected keys ${extra.join(', ')}`);
  }
}

export class EmulatorClient {
  constructor(readonly url: string) {}

  async raw(path: string, init: { method?: string; headers?: Record<string, string>; body?: string | Buffer } = {}): Promise<Answer> {
    const response = await fetch(`${this.url}${path}`, {
      method: init.method ?? 'POST',
      headers: init.headers,
      body: init.body,
    });
    const text = await response.text();
    let body: any;
    try {
      body = JSON.parse(text);
    } catch {
      body = undefined;
    }
    return { status: response.status, headers: response.headers, text, body };
  }

  /** Calls an operation; any success answer is checked against the contract on the way. */
  async call(name: OperationName, body: unknown = {}, token: string = STORE): Promise<Answer> {
    const answer = await this.raw(`/v1/${operations[name].path}`, {
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify(body),
    });
    if (answer.status === 200 && answer.body?.status === 'success') checkAgainstContract(name, answer.body);
    return answer;
  }

  /** The success payload (result, or the top level for get-all-campaigns); fails the test otherwise. */
  async ok(name: OperationName, body: unknown = {}, token: string = STORE): Promise<any> {
    const answer = await this.call(name, body, token);
    if (answer.status !== 200 || answer.body?.status !== 'success') {
      throw new Error(`${name} expected success, got HTTP ${answer.status}: ${answer.text.slice(0, 800)}`);
    }
    return operations[name].wrapping === 'top-level' ? answer.body : answer.body.result;
  }

  /** The error envelope of a refused call, checked against design 4.7 and the expected code and HTTP status. */
  async fail(name: OperationName, body: unknown, code: string, httpStatus: number, token: string = STORE) {
    const answer = await this.call(name, body, token);
    const envelope = errorEnvelope.safeParse(answer.body);
    if (!envelope.success) throw new Error(`${name} expected an error envelope, got HTTP ${answer.status}: ${answer.text.slice(0, 500)}`);
    expect({ code: envelope.data.errors.code, status: answer.status }, answer.text.slice(0, 800)).toEqual({ code, status: httpStatus });
    return envelope.data;
  }

  async admin(route: string, body?: unknown, method = 'POST'): Promise<Answer> {
    return this.raw(`/_emulator/${route}`, {
      method,
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  }

  /** An admin call that must succeed. */
  async adminOk(route: string, body?: unknown, method = 'POST'): Promise<any> {
    const answer = await this.admin(route, body, method);
    if (answer.status !== 200) throw new Error(`admin ${method} ${route} failed with ${answer.status}: ${answer.text}`);
    return answer.body;
  }

  status(ymCampaignId: number, token: string = STORE): Promise<string> {
    return this.ok('get', { ymCampaignId }, token).then((r) => r.campaignStatus);
  }

  info(ymCampaignId: number, token: string = STORE): Promise<any> {
    return this.ok('info', { ymCampaignId }, token);
  }

  advance(ms: number): Promise<any> {
    return this.adminOk('clock', { advanceMs: ms });
  }

  async now(): Promise<number> {
    return Date.parse((await this.adminOk('clock', undefined, 'GET')).now);
  }
}

/**
 * One emulator per test file, reset to its fixtures before every test. Moderation is manual
 * unless a file asks otherwise, so nothing moves unless a test moves it.
 */
export function useEmulator(options: EmulatorOptions = { moderation: { mode: 'manual' } }): { client: EmulatorClient; emulator: () => RunningEmulator } {
  let running: RunningEmulator | undefined;
  const holder = { client: undefined as unknown as EmulatorClient, emulator: () => running! };
  beforeAll(async () => {
    running = await startEmulator({ quiet: true, ...options });
    holder.client = new EmulatorClient(running.url);
  });
  afterAll(async () => {
    await running?.close();
  });
  beforeEach(async () => {
    await holder.client.adminOk('reset');
  });
  return holder;
}

let nextPartnerCampaignId = 50_000;

export type Kind = 'promo' | 'banner' | 'codeOnline' | 'codeOffline';

/** A valid create body of the given kind; code kinds default to one-off text pins. */
export function campaignBody(kind: Kind, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  const body: Record<string, unknown> = {
    partnerCampaignId: nextPartnerCampaignId++,
    categoryId: 3,
    campaignType: kind,
    merchantDomain: 'shop.example.ru',
    merchantLogoSvg: 'https://shop.example.ru/logo.svg',
    merchantLogoPng: 'https://shop.example.ru/logo.png',
    merchantName: 'Магазин',
    backgroundColor: '#222222',
    fontColor: '#FFFFFF',
    description: 'Скидка на всё',
    conditions: 'При заказе от 1000 рублей',
    discountType: 'percent',
    discountAmount: '10',
    feeType: 'percent',
    campaignFee: '5',
  };
  if (kind === 'promo' || kind === 'banner' || kind === 'codeOnline') body.acceptUrl = 'https://shop.example.ru/go';
  if (kind === 'banner') {
    body.appearanceType = 'ImageBanner';
    body.backgroundImage = 'https://shop.example.ru/banner.png';
  }
  if (kind === 'codeOnline' || kind === 'codeOffline') {
    body.pinType = 'one-off';
    body.pinDisplayType = 'text';
  }
  const merged = { ...body, ...overrides };
  for (const [k, v] of Object.entries(merged)) if (v === undefined) delete merged[k];
  return merged;
}

export function reusableBody(kind: 'codeOnline' | 'codeOffline', overrides: Record<string, unknown> = {}) {
  return campaignBody(kind, { pinType: 'reusable', couponCode: 'SAVE10', ...overrides });
}

export function pins(prefix: string, count: number, from = 0): string[] {
  return Array.from({ length: count }, (_, i) => `${prefix}${i + from}`);
}

/** Creates a campaign and returns its ymCampaignId. */
export async function create(client: EmulatorClient, body: Record<string, unknown>, token: string = STORE): Promise<number> {
  return (await client.ok('create', body, token)).ymCampaignId;
}

export async function approve(client: EmulatorClient, ymCampaignId: number): Promise<void> {
  await client.adminOk('moderate', { ymCampaignId, decision: 'approve' });
}

/** A started store campaign of this kind; one-off code campaigns get `pinCount` pins first. */
export async function startedCampaign(client: EmulatorClient, kind: Kind, overrides: Record<string, unknown> = {}, pinCount = 3, token: string = STORE) {
  const body = campaignBody(kind, overrides);
  const id = await create(client, body, token);
  if (body.pinType === 'one-off' && pinCount > 0) await client.ok('addPins', { ymCampaignId: id, pinList: pins(`P${id}-`, pinCount) }, token);
  if ((await client.status(id, token)) === 'moderation') await approve(client, id);
  const status = await client.status(id, token);
  if (status !== 'started') throw new Error(`campaign ${id} did not start: ${status}`);
  return { id, body };
}

export const isoIn = (now: number, ms: number) => new Date(now + ms).toISOString();
