import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { operations, OPERATION_NAMES, type OperationName } from '../../src/campaign-api/index.js';
import { HEADER_LIMIT_BYTES } from '../../src/emulator/index.js';
import { AGGREGATOR, STORE, approve, campaignBody, create, isoIn, DAY, startedCampaign, useEmulator, type EmulatorClient } from './support.js';

type Case = (client: EmulatorClient) => Promise<unknown>;

/** For every operation, every error code the reference (section 7) and design 4 give it. */
const cases: Record<OperationName, Record<string, Case>> = {
  create: {
    incorrectData: (c) => c.fail('create', campaignBody('promo', { backgroundColor: 'white' }), 'incorrectData', 400),
    repeatCampaignData: async (c) => {
      const body = campaignBody('promo');
      await create(c, body);
      return c.fail('create', { ...body, discountAmount: '11' }, 'repeatCampaignData', 400);
    },
  },
  update: {
    incorrectData: async (c) => {
      const body = campaignBody('promo');
      await create(c, body);
      return c.fail('update', { partnerCampaignId: body.partnerCampaignId, fontColor: '#232323' }, 'incorrectData', 400);
    },
    campaignNotFound: (c) => c.fail('update', { partnerCampaignId: 987_654, merchantName: 'Нет' }, 'campaignNotFound', 404),
    // Fixture campaign 7 (partnerCampaignId 1007) is finished.
    failFinished: (c) => c.fail('update', { partnerCampaignId: 1007, description: 'Снова в строю' }, 'failFinished', 409),
  },
  get: {
    incorrectData: (c) => c.fail('get', { ymCampaignId: 'one' }, 'incorrectData', 400),
    campaignNotFound: (c) => c.fail('get', { ymCampaignId: 999_999 }, 'campaignNotFound', 404),
  },
  info: {
    incorrectData: (c) => c.fail('info', {}, 'incorrectData', 400),
    campaignNotFound: (c) => c.fail('info', { ymCampaignId: 999_999 }, 'campaignNotFound', 404),
  },
  start: {
    incorrectData: (c) => c.fail('start', { ymCampaignId: -1 }, 'incorrectData', 400),
    failPin: async (c) => {
      const id = await create(c, campaignBody('codeOnline', { campaignStart: isoIn(await c.now(), DAY) }));
      await approve(c, id);
      return c.fail('start', { ymCampaignId: id }, 'failPin', 409);
    },
    failFinished: (c) => c.fail('start', { ymCampaignId: 7 }, 'failFinished', 409),
    failModerator: (c) => c.fail('start', { ymCampaignId: 4 }, 'failModerator', 409),
    campaignNotFound: (c) => c.fail('start', { ymCampaignId: 9 }, 'campaignNotFound', 404),
  },
  stop: {
    incorrectData: (c) => c.fail('stop', { ymCampaignId: 1.5 }, 'incorrectData', 400),
    failMerchant: (c) => c.fail('stop', { ymCampaignId: 9 }, 'failMerchant', 403),
    failFinished: (c) => c.fail('stop', { ymCampaignId: 7 }, 'failFinished', 409),
    campaignNotFound: (c) => c.fail('stop', { ymCampaignId: 999_999 }, 'campaignNotFound', 404),
  },
  redeem: {
    incorrectData: (c) => c.fail('redeem', { ymCampaignId: 1, transactionId: 't', campaignFee: '1', pinContent: 'NOPE' }, 'incorrectData', 400),
    campaignNotFound: (c) => c.fail('redeem', { ymCampaignId: 9, transactionId: 't', campaignFee: '1', clickId: 'x' }, 'campaignNotFound', 404),
  },
  addPins: {
    incorrectData: (c) => c.fail('addPins', { ymCampaignId: 1, pinList: [] }, 'incorrectData', 400),
    campaignNotFound: (c) => c.fail('addPins', { ymCampaignId: 9, pinList: ['A'] }, 'campaignNotFound', 404),
  },
  getAllCampaigns: {
    incorrectData: (c) => c.fail('getAllCampaigns', { limit: 0, offset: 0 }, 'incorrectData', 400),
  },
  getPinsByStatus: {
    incorrectData: (c) => c.fail('getPinsByStatus', { ymCampaignId: 1, pinStatus: 'lost' }, 'incorrectData', 400),
    campaignNotFound: (c) => c.fail('getPinsByStatus', { ymCampaignId: 9, pinStatus: 'new_unused' }, 'campaignNotFound', 404),
  },
  getCategories: {},
};

describe('error codes of reference section 7, per operation', () => {
  const env = useEmulator();

  it('covers every code the contract lists for every operation', () => {
    for (const name of OPERATION_NAMES) expect(Object.keys(cases[name]).sort(), name).toEqual([...operations[name].errors].sort());
  });

  for (const name of OPERATION_NAMES) {
    for (const [code, run] of Object.entries(cases[name])) {
      it(`${operations[name].path}: ${code}`, async () => {
        const envelope = (await run(env.client)) as { errors: { message: string } };
        expect(envelope.errors.message.length).toBeGreaterThan(10);
      });
    }
  }

  it('incorrectData names ymCampaignId when a client sends partnerCampaignId instead (design 4.1)', async () => {
    for (const name of ['get', 'info', 'start', 'stop', 'addPins', 'redeem', 'getPinsByStatus'] as const) {
      const envelope = await env.client.fail(name, { partnerCampaignId: 1001, pinList: ['A'], pinStatus: 'new_unused', transactionId: 't', campaignFee: '1' }, 'incorrectData', 400);
      expect(envelope.errors.fields?.map((f) => f.field), name).toContain('ymCampaignId');
      expect(envelope.errors.message).toMatch(/ymCampaignId is required: send the ymCampaignId that campaigns\/create returned/);
    }
  });

  it('update names partnerCampaignId when it is missing (a client keyed by ymCampaignId)', async () => {
    const envelope = await env.client.fail('update', { ymCampaignId: 1, merchantName: 'Имя' }, 'incorrectData', 400);
    expect(envelope.errors.fields).toEqual([{ field: 'partnerCampaignId', message: expect.stringMatching(/^is required: campaigns\/update is keyed by the partnerCampaignId/) }]);
  });

  it('start and stop failures carry the current status; other errors do not', async () => {
    expect((await env.client.fail('start', { ymCampaignId: 5 }, 'failModerator', 409)).result).toEqual({ ymCampaignId: 5, campaignStatus: 'declined' });
    expect((await env.client.fail('get', { ymCampaignId: 999 }, 'campaignNotFound', 404)).result).toBeUndefined();
  });
});

describe('transport-level errors', () => {
  const env = useEmulator();
  const url = (path = 'campaigns/get') => `/v1/${path}`;
  const auth = { authorization: `Bearer ${STORE}`, 'content-type': 'application/json' };

  it('401 unauthorized for a missing, malformed or unknown token, never echoing it', async () => {
    for (const headers of [{}, { authorization: 'Basic abc' }, { authorization: 'Bearer nobody-knows-me' }, { authorization: 'Bearer' }] as Record<string, string>[]) {
      const answer = await env.client.raw(url(), { headers, body: '{"ymCampaignId":1}' });
      expect(answer.status).toBe(401);
      expect(answer.body.status).toBe('error');
      expect(answer.body.errors.code).toBe('unauthorized');
      expect(answer.text).not.toContain('nobody-knows-me');
    }
  });

  it('accepts "Bearer <token>" and the samples\' "Bearer: <token>", any case of the scheme', async () => {
    for (const authorization of [`Bearer ${STORE}`, `Bearer: ${STORE}`, `bearer ${STORE}`, `Bearer:${STORE}`]) {
      const answer = await env.client.raw(url(), { headers: { authorization }, body: '{"ymCampaignId":1}' });
      expect(answer.status, authorization).toBe(200);
    }
  });

  it('unknown operation → 404 unknownOperation listing the operations', async () => {
    const answer = await env.client.raw(url('campaigns/delete'), { headers: auth, body: '{}' });
    expect(answer.status).toBe(404);
    expect(answer.body.errors.code).toBe('unknownOperation');
    expect(answer.body.errors.message).toContain('/v1/campaigns/get-all-campaigns');
  });

  it('a method other than POST → 405 with Allow: POST', async () => {
    const answer = await env.client.raw(url(), { method: 'GET', headers: auth });
    expect(answer.status).toBe(405);
    expect(answer.headers.get('allow')).toBe('POST');
    expect(answer.body.errors.code).toBe('methodNotAllowed');
  });

  it('malformed JSON → 400 incorrectData saying so', async () => {
    const answer = await env.client.raw(url(), { headers: auth, body: '{"ymCampaignId": 1,' });
    expect(answer.status).toBe(400);
    expect(answer.body.errors.code).toBe('incorrectData');
    expect(answer.body.errors.message).toMatch(/not valid JSON/);
  });

  it('a body that is not UTF-8 → 415 unsupportedMediaType by its declared charset, 400 incorrectData by its bytes; nothing stored', async () => {
    const total = async () => (await env.client.call('getAllCampaigns', { limit: 1, offset: 0 })).body.total;
    const campaignsBefore = await total();
    const [before, after] = JSON.stringify(campaignBody('promo', { merchantName: '@NAME@' })).split('@NAME@');
    const latin1 = Buffer.concat([Buffer.from(before!), Buffer.from('Café Crème', 'latin1'), Buffer.from(after!)]);
    const declared = await env.client.raw(url('campaigns/create'), { headers: { ...auth, 'content-type': 'application/json; charset=iso-8859-1' }, body: latin1 });
    expect(declared.status).toBe(415);
    expect(declared.body.errors).toEqual({ code: 'unsupportedMediaType', message: 'the request body must be JSON encoded as UTF-8, not charset "iso-8859-1"' });
    const undeclared = await env.client.raw(url('campaigns/create'), { headers: { ...auth, 'content-type': 'application/json' }, body: latin1 });
    expect(undeclared.status).toBe(400);
    expect(undeclared.body.errors).toMatchObject({ code: 'incorrectData', message: 'the request body is not valid UTF-8: send the JSON encoded as UTF-8' });
    expect(await total()).toBe(campaignsBefore);
    // The same body in UTF-8 with a charset that says so is taken.
    const utf8 = Buffer.concat([Buffer.from(before!), Buffer.from('Café Crème'), Buffer.from(after!)]);
    const taken = await env.client.raw(url('campaigns/create'), { headers: { ...auth, 'content-type': 'application/json; charset="UTF-8"' }, body: utf8 });
    expect(taken.status).toBe(200);
    expect(await total()).toBe(campaignsBefore + 1);
    const stored = await env.client.call('get', { ymCampaignId: taken.body.result.ymCampaignId });
    expect(stored.body.result.merchantName).toBe('Café Crème');
  });

  it.each([['[1,2]', 'an array'], ['42', 'a number'], ['null', 'null'], ['"x"', 'a string']])('a body of %s → 400 incorrectData', async (body, what) => {
    const answer = await env.client.raw(url(), { headers: auth, body });
    expect(answer.status).toBe(400);
    expect(answer.body.errors.message).toBe(`the request body must be a JSON object, got ${what}`);
  });

  it('wrong types are reported per field, all at once', async () => {
    const envelope = await env.client.fail('redeem', { ymCampaignId: '1', transactionId: 5, campaignFee: 10, redeemStatus: 'paid' }, 'incorrectData', 400);
    expect(envelope.errors.fields?.map((f) => f.field).sort()).toEqual(['campaignFee', 'redeemStatus', 'transactionId', 'ymCampaignId']);
  });

  it('an empty body reads as {} (categories/get takes none)', async () => {
    const answer = await env.client.raw(url('categories/get'), { headers: auth });
    expect(answer.status).toBe(200);
    const get = await env.client.raw(url(), { headers: auth });
    expect(get.body.errors.fields).toEqual([{ field: 'ymCampaignId', message: expect.stringMatching(/^is required/) }]);
  });

  it('a body over 10 MB → 413 payloadTooLarge, declared by Content-Length or streamed', async () => {
    const big = Buffer.alloc(10 * 1024 * 1024 + 10, 0x20);
    const declared = await env.client.raw(url('campaigns/add-pins'), { headers: auth, body: big });
    expect(declared.status).toBe(413);
    expect(declared.body.errors.code).toBe('payloadTooLarge');
    // Without Content-Length: a chunked stream that crosses the limit.
    const chunk = Buffer.alloc(1024 * 1024, 0x20);
    const stream = new ReadableStream({
      start(controller) {
        for (let i = 0; i < 12; i++) controller.enqueue(chunk);
        controller.close();
      },
    });
    const response = await fetch(`${env.client.url}${url('campaigns/add-pins')}`, { method: 'POST', headers: auth, body: stream, duplex: 'half' } as RequestInit);
    expect(response.status).toBe(413);
    expect(((await response.json()) as any).errors.code).toBe('payloadTooLarge');
    // The server is still fine afterwards.
    expect((await env.client.call('get', { ymCampaignId: 1 })).status).toBe(200);
  });

  it('just under 10 MB is read and validated', async () => {
    const pinList = Array.from({ length: 10_000 }, (_, i) => `${'p'.repeat(240)}${i}`);
    const body = JSON.stringify({ ymCampaignId: 1, pinList, padding: ' '.repeat(7 * 1024 * 1024) });
    expect(body.length).toBeLessThan(10 * 1024 * 1024);
    const answer = await env.client.raw(url('campaigns/add-pins'), { headers: auth, body });
    expect(answer.status).toBe(200);
    expect(answer.body.result.counters.totalPinCount).toBe(20 + 10_000);
  });

  it('garbage of every shape never crashes the server', async () => {
    const bodies = ['', '{', '}', 'null', '{"__proto__":{"polluted":1}}', '{"ymCampaignId":1e400}', '\u0000\u0001', '{"pinList":{"length":99999999}}', '{"ymCampaignId":{"valueOf":1}}', 'x'.repeat(100_000)];
    for (const name of OPERATION_NAMES) {
      for (const body of bodies) {
        const answer = await env.client.raw(`/v1/${operations[name].path}`, { headers: auth, body });
        expect([200, 400, 404, 409]).toContain(answer.status);
        expect(answer.body?.status, `${name} ${body.slice(0, 30)}`).toMatch(/^(success|error)$/);
      }
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect((await env.client.call('get', { ymCampaignId: 1 })).status).toBe(200);
  });

  /** One request written byte for byte, its head exactly `headBytes` long (a long Authorization header); the status line answered. */
  function exactHead(headBytes: number, token = 'x'): Promise<{ status: number; text: string }> {
    const { port } = new URL(env.client.url);
    const head = (filler: string) => `POST /v1/campaigns/get HTTP/1.1\r\nhost: emulator\r\ncontent-length: 2\r\nauthorization: Bearer ${token}${filler}\r\nconnection: close\r\n\r\n`;
    const request = `${head('x'.repeat(headBytes - head('').length))}{}`;
    return new Promise((resolve, reject) => {
      const socket = connect(Number(port), '127.0.0.1', () => socket.write(request));
      const chunks: Buffer[] = [];
      socket.on('data', (chunk) => chunks.push(chunk));
      socket.on('error', reject);
      socket.on('end', () => {
        const text = Buffer.concat(chunks).toString('latin1');
        resolve({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1]), text });
      });
    });
  }

  it('a request line and headers over 16 KiB (a long Authorization header) → a bare 400 without an envelope, counted as a call', async () => {
    await env.client.adminOk('calls', undefined, 'DELETE');
    // Exactly at the limit, the request is read: an unknown token.
    expect((await exactHead(HEADER_LIMIT_BYTES)).status).toBe(401);
    const refused = await exactHead(HEADER_LIMIT_BYTES + 1);
    expect(refused.status).toBe(400);
    expect(refused.text).toMatch(/content-type: text\/plain/i);
    expect(refused.text).not.toContain('"status"');
    // Far over it (30 KB, past Node's default limit), and with a token the emulator knows: the same bare 400, nothing read.
    expect((await exactHead(30_000, STORE)).status).toBe(400);
    const answer = await env.client.raw(url(), { headers: { ...auth, authorization: `Bearer ${'A'.repeat(HEADER_LIMIT_BYTES)}` }, body: '{"ymCampaignId":1}' });
    expect(answer.status).toBe(400);
    expect(answer.body).toBeUndefined();
    expect((await env.client.adminOk('calls', undefined, 'GET')).calls).toEqual({ 'campaigns/get': 4 });
    expect((await env.client.call('get', { ymCampaignId: 1 })).status).toBe(200);
  });

  it('other paths answer a JSON 404 pointing at the right places', async () => {
    const answer = await env.client.raw('/v2/campaigns/get', { headers: auth, body: '{}' });
    expect(answer.status).toBe(404);
    expect(answer.body.error).toMatch(/operations are under \/v1\//);
  });

  it('a foreign partner token sees other campaigns as not found', async () => {
    const { id } = await startedCampaign(env.client, 'promo', {}, 0, AGGREGATOR);
    await env.client.fail('get', { ymCampaignId: id }, 'campaignNotFound', 404, STORE);
  });
});
