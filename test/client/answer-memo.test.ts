import { describe, expect, it } from 'vitest';
import { AnswerMemo } from '../../src/campaign-api/answer-memo.js';
import { BusinessError } from '../../src/campaign-api/errors.js';
import { recordingClient, useTestServer } from './support/clients.js';
import { json } from './support/test-server.js';

const categoriesText = (name: string) => JSON.stringify({ status: 'success', result: { categories: [{ categoryId: 1, categoryName: name }] } });
const startedText = JSON.stringify({ status: 'success', result: { ymCampaignId: 7, campaignStatus: 'started' } });
const valueOf = (verdict: ReturnType<AnswerMemo['verdictOf']>) => {
  if (verdict.kind !== 'success') throw new Error(`expected a success, got ${verdict.kind}`);
  return verdict.value;
};

describe('AnswerMemo', () => {
  it('gives the same frozen value for an answer the same as the last one to that read', () => {
    const memo = new AnswerMemo(1024 * 1024);
    const first = valueOf(memo.verdictOf('getCategories', '{}', 200, categoriesText('Еда')));
    const again = valueOf(memo.verdictOf('getCategories', '{}', 200, categoriesText('Еда')));
    expect(again).toBe(first);
    expect(again).toEqual({ categories: [{ categoryId: 1, categoryName: 'Еда' }] });
    expect(Object.isFrozen(first)).toBe(true);
    expect(() => (first as { categories: unknown[] }).categories.push({ categoryId: 2, categoryName: 'x' })).toThrow(TypeError);
    expect(() => Object.assign((first as { categories: object[] }).categories[0]!, { categoryName: 'changed' })).toThrow(TypeError);
  });

  it('parses and checks again an answer that differs in any byte, and remembers it in turn', () => {
    const memo = new AnswerMemo(1024 * 1024);
    const food = valueOf(memo.verdictOf('getCategories', '{}', 200, categoriesText('Еда')));
    const drink = valueOf(memo.verdictOf('getCategories', '{}', 200, categoriesText('Еды')));
    expect(drink).not.toBe(food);
    expect(drink).toEqual({ categories: [{ categoryId: 1, categoryName: 'Еды' }] });
    expect(valueOf(memo.verdictOf('getCategories', '{}', 200, categoriesText('Еды')))).toBe(drink);
    // Another status is another answer, even with the same text.
    expect(valueOf(memo.verdictOf('getCategories', '{}', 201, categoriesText('Еды')))).not.toBe(drink);
  });

  it('keeps each read apart by its operation and request body', () => {
    const memo = new AnswerMemo(1024 * 1024);
    const list = JSON.stringify({ status: 'success', total: 0, campaigns: [] });
    const categories = valueOf(memo.verdictOf('getCategories', '{}', 200, categoriesText('Еда')));
    const campaigns = valueOf(memo.verdictOf('getAllCampaigns', '{}', 200, list));
    const food = valueOf(memo.verdictOf('getCategories', '{"n":1}', 200, categoriesText('Еда')));
    expect(food).not.toBe(categories);
    expect(valueOf(memo.verdictOf('getCategories', '{}', 200, categoriesText('Еда')))).toBe(categories);
    expect(valueOf(memo.verdictOf('getAllCampaigns', '{}', 200, list))).toBe(campaigns);
    expect(valueOf(memo.verdictOf('getCategories', '{"n":1}', 200, categoriesText('Еда')))).toBe(food);
  });

  it('never remembers a write, nor an answer that is not a success', () => {
    const memo = new AnswerMemo(1024 * 1024);
    const started = valueOf(memo.verdictOf('start', '{"ymCampaignId":7}', 200, startedText));
    expect(valueOf(memo.verdictOf('start', '{"ymCampaignId":7}', 200, startedText))).not.toBe(started);
    expect(Object.isFrozen(started)).toBe(false);
    const notFound = JSON.stringify({ status: 'error', errors: { campaignNotFound: 'no such campaign' } });
    const refused = memo.verdictOf('get', '{"ymCampaignId":9}', 400, notFound);
    expect(refused.kind).toBe('refused');
    expect(memo.verdictOf('get', '{"ymCampaignId":9}', 400, notFound)).not.toBe(refused);
  });

  it('holds no more than its bytes, and keeps no answer larger than an eighth of them', () => {
    const text = categoriesText('Еда');
    // An entry is counted at about four bytes per character of its text: room for ten of these.
    const entry = 4 * text.length + 2 * 'getCategories {"n":0}'.length + 200;
    const memo = new AnswerMemo(10 * entry + entry / 2);
    const firsts = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9].map((n) => valueOf(memo.verdictOf('getCategories', `{"n":${n}}`, 200, text)));
    expect(valueOf(memo.verdictOf('getCategories', '{"n":0}', 200, text))).toBe(firsts[0]);
    // An eleventh read pushes out the least recently used: n = 1 (n = 0 was used just now).
    valueOf(memo.verdictOf('getCategories', '{"n":10}', 200, text));
    expect(valueOf(memo.verdictOf('getCategories', '{"n":1}', 200, text))).not.toBe(firsts[1]);
    expect(valueOf(memo.verdictOf('getCategories', '{"n":0}', 200, text))).toBe(firsts[0]);

    const small = new AnswerMemo(8 * 1024);
    const large = categoriesText('x'.repeat(1000));
    const once = valueOf(small.verdictOf('getCategories', '{}', 200, large));
    expect(valueOf(small.verdictOf('getCategories', '{}', 200, large))).not.toBe(once);
  });

  it('keeps nothing at 0 bytes', () => {
    const memo = new AnswerMemo(0);
    const first = valueOf(memo.verdictOf('getCategories', '{}', 200, categoriesText('Еда')));
    expect(valueOf(memo.verdictOf('getCategories', '{}', 200, categoriesText('Еда')))).not.toBe(first);
    expect(Object.isFrozen(first)).toBe(false);
  });
});

describe('the client over HTTP', () => {
  const testServer = useTestServer();

  const campaign = (status: string) => ({
    ymCampaignId: 7,
    campaignStatus: status,
    campaignType: 'promo',
    merchantDomain: 'shop.example',
    merchantLogoSvg: 'https://shop.example/logo.svg',
    merchantLogoPng: 'https://shop.example/logo.png',
    merchantName: 'Shop',
    backgroundColor: '#000000',
    fontColor: '#FFFFFF',
    description: 'Ten percent off',
    conditions: 'Online only',
    discountType: 'percent',
    discountAmount: '10',
  });

  it('reads each answer as it is now: a changed campaign is read changed, every read still sent', async () => {
    const server = testServer();
    const { client } = recordingClient(server.url);
    server.respond(json(200, { status: 'success', result: campaign('started') }));
    const first = await client.get('token-a', { ymCampaignId: 7 });
    const second = await client.get('token-a', { ymCampaignId: 7 });
    expect(second).toBe(first);
    server.respond(json(200, { status: 'success', result: campaign('paused') }));
    const third = await client.get('token-a', { ymCampaignId: 7 });
    expect(third.campaignStatus).toBe('paused');
    expect(first.campaignStatus).toBe('started');
    expect(server.seen).toHaveLength(3);
  });

  it("never answers one partner with another's answer to the same request", async () => {
    const server = testServer();
    const { client } = recordingClient(server.url);
    server.respond((request, response) => {
      const body =
        request.headers.authorization === 'Bearer token-a'
          ? { status: 'success', result: campaign('started') }
          : { status: 'error', errors: { campaignNotFound: 'no campaign 7 for this partner' } };
      json(body.status === 'success' ? 200 : 400, body)(request, response);
    });
    const [a, b] = await Promise.allSettled([client.get('token-a', { ymCampaignId: 7 }), client.get('token-b', { ymCampaignId: 7 })]);
    expect(a.status === 'fulfilled' && a.value.campaignStatus).toBe('started');
    expect(b.status === 'rejected' && b.reason).toBeInstanceOf(BusinessError);
    await expect(client.get('token-b', { ymCampaignId: 7 })).rejects.toMatchObject({ code: 'campaignNotFound' });
    await expect(client.get('token-a', { ymCampaignId: 7 })).resolves.toMatchObject({ campaignStatus: 'started' });
  });

  it('keeps nothing with answerMemoBytes 0', async () => {
    const server = testServer();
    const { client } = recordingClient(server.url, { answerMemoBytes: 0 });
    server.respond(json(200, { status: 'success', result: campaign('started') }));
    const first = await client.get('token-a', { ymCampaignId: 7 });
    const second = await client.get('token-a', { ymCampaignId: 7 });
    expect(second).toEqual(first);
    expect(second).not.toBe(first);
  });
});
