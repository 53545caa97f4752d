import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startStack, type Stack } from '../helpers/stack.js';
import { CREATE, createCampaign, newPartner, oneOffInput, promoInput } from './support.js';
import { cid, numberOf } from '../helpers/ids.js';

/**
 * updateCampaign over real HTTP: only the fields given change, null clears, a change that changes
 * nothing writes nothing, and every refusal names its input path and its kind. The backend is
 * called only with input that passed the contract's rules.
 */
let stack: Stack;
beforeAll(async () => {
  stack = await startStack({ emulator: { moderation: { mode: 'manual' } } });
  await stack.gql(`{ categories { id } }`); // warm: the category check then costs no call
});
afterAll(() => stack?.close());
// Back to the fixtures (and no faults, no counted calls) before each test, so tests do not depend on each other.
beforeEach(() => stack.admin('reset', {}));

const UPDATE = `mutation ($input: UpdateCampaignInput!) {
  updateCampaign(input: $input) { campaign { id status type merchant { name } } userErrors { field message code } } }`;

const fields = (errors: { field: string[] | null }[]) => errors.map((e) => e.field?.join('.') ?? null).sort();

describe('updateCampaign', () => {
  const DETAIL = `query ($id: ID!) { campaign(id: $id) {
    id status description endsAt supportedPlatforms merchant { name } appearance { backgroundColor fontColor }
    discount { type amount currency } fee { amount min max } } }`;
  const read = async (id: string, token?: string) => (await stack.gql(DETAIL, { id }, token)).body.data.campaign;
  const future = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString();

  /** A store's started promo campaign of a fresh partner, with an end and platforms set. */
  async function started(partnerCampaignId: number, overrides: Record<string, unknown> = {}): Promise<{ token: string; id: string }> {
    const token = await newPartner(stack, 'store');
    const id = await createCampaign(stack, promoInput(partnerCampaignId, { endsAt: future(30), supportedPlatforms: ['MOBILE'], ...overrides }), token);
    await stack.admin('moderate', { ymCampaignId: numberOf(id), decision: 'approve' });
    await stack.resetCalls();
    return { token, id };
  }

  it('changes only the fields given, keyed by id, and sends the campaign to moderation again', async () => {
    const { token, id } = await started(7101);
    const before = await read(id, token);
    expect(before.status).toBe('STARTED');
    await stack.resetCalls();
    const { body } = await stack.gql(UPDATE, { input: { id, merchant: { name: 'Новое имя' } } }, token);
    expect(body.errors).toBeUndefined();
    expect(body.data.updateCampaign).toEqual({ campaign: { id, status: 'MODERATION', type: 'PROMO', merchant: { name: 'Новое имя' } }, userErrors: [] });
    // One read of the campaign, the write, and a fresh read for the payload's fields.
    expect(await stack.calls()).toEqual({ 'campaigns/get': 2, 'campaigns/update': 1 });
    // Every field not given kept its value, optional ones included.
    expect(await read(id, token)).toEqual({ ...before, status: 'MODERATION', merchant: { name: 'Новое имя' } });
  });

  it('null clears an optional field; a field every campaign has cannot be null', async () => {
    const { token, id } = await started(7102);
    const { body } = await stack.gql(UPDATE, { input: { id, endsAt: null, supportedPlatforms: null } }, token);
    expect(body.data.updateCampaign.userErrors).toEqual([]);
    expect(await read(id, token)).toMatchObject({ endsAt: null, supportedPlatforms: null, merchant: { name: 'Магазин' } });

    await stack.resetCalls();
    const required = await stack.gql(UPDATE, { input: { id, description: null, merchant: { name: null }, fee: { type: null } } }, token);
    expect(required.body.data.updateCampaign.campaign).toBeNull();
    const byField = (errors: { field: string[] }[]) => [...errors].sort((a, b) => a.field.join('.').localeCompare(b.field.join('.')));
    expect(byField(required.body.data.updateCampaign.userErrors)).toEqual(
      [['description'], ['fee', 'type'], ['merchant', 'name']].map((f) => ({ field: ['input', ...f], code: 'REQUIRED', message: 'is required and cannot be cleared: leave it out to keep the current value' })),
    );
    // A whole group every campaign has cannot be null either; pinSettings and cashback can.
    const group = await stack.gql(UPDATE, { input: { id, merchant: null, appearance: null } }, token);
    expect(byField(group.body.data.updateCampaign.userErrors)).toEqual(
      ['appearance', 'merchant'].map((f) => ({ field: ['input', f], code: 'REQUIRED', message: 'is required and cannot be cleared: leave it out to keep the current values' })),
    );
    expect(await stack.calls()).toEqual({});
  });

  it('an update that changes nothing succeeds with the campaign as it is, writes nothing, and a STARTED campaign stays STARTED', async () => {
    const { token, id } = await started(7103, { startsAt: '2026-01-01T09:00:00+03:00', supportedPlatforms: ['MOBILE', 'DESKTOP'] });
    const unchanged = { campaign: { id, status: 'STARTED', type: 'PROMO', merchant: { name: 'Магазин' } }, userErrors: [] };
    // No field but id: one read, for the payload.
    const nothing = await stack.gql(UPDATE, { input: { id } }, token);
    expect(nothing.body).toEqual({ data: { updateCampaign: unchanged } });
    expect(await stack.calls()).toEqual({ 'campaigns/get': 1 });
    await stack.resetCalls();

    // Every value equal to the current one, written another way where a value allows it.
    const same = {
      id,
      merchant: { name: 'Магазин' },
      discount: { amount: '15.00', currency: 'RUB' },
      fee: { amount: '5.0' },
      startsAt: '2026-01-01T06:00:00Z',
      supportedPlatforms: ['DESKTOP', 'MOBILE'],
      appearance: { backgroundImageUrl: null },
      cashback: null,
    };
    // The same again, as a retried request sends it: the same answer, still no write.
    for (let i = 0; i < 2; i++) {
      const equal = await stack.gql(UPDATE, { input: same }, token);
      expect(equal.body).toEqual({ data: { updateCampaign: unchanged } });
    }
    expect(await stack.calls()).toEqual({ 'campaigns/get': 2 });
    expect((await read(id, token)).status).toBe('STARTED');

    // A finished campaign saved unchanged is no refusal either: nothing is asked of the campaign API.
    const finished = await stack.gql(UPDATE, { input: { id: cid(7), description: (await stack.gql(`{ campaign(id: "7") { description } }`)).body.data.campaign.description } });
    expect(finished.body.data.updateCampaign).toMatchObject({ campaign: { id: cid(7), status: 'FINISHED' }, userErrors: [] });
    expect((await stack.calls())['campaigns/update']).toBeUndefined();
  });

  it('a fee form replaces the other; a new kind\'s requirements name their field before any write', async () => {
    const { token, id } = await started(7104);
    const range = await stack.gql(UPDATE, { input: { id, fee: { min: '1', max: '3' } } }, token);
    expect(range.body.data.updateCampaign.userErrors).toEqual([]);
    expect((await read(id, token)).fee).toEqual({ amount: null, min: '1', max: '3' });

    await stack.resetCalls();
    const banner = await stack.gql(UPDATE, { input: { id, type: 'BANNER' } }, token);
    expect(banner.body.data.updateCampaign.userErrors).toEqual([{ field: ['input', 'appearance', 'appearanceType'], code: 'REQUIRED', message: 'is required for type BANNER' }]);
    expect(await stack.calls()).toEqual({ 'campaigns/get': 1 });
  });

  it('changing how codes are handed out while the campaign holds one-off codes is NOT_ALLOWED_NOW, before any write', async () => {
    const token = await newPartner(stack, 'store');
    const ADD_PINS = `mutation ($input: AddPinsInput!) { addPins(input: $input) { storedCount userErrors { code } } }`;
    const id = await createCampaign(stack, oneOffInput(7107), token);
    expect((await stack.gql(ADD_PINS, { input: { campaignId: id, pins: ['A-1', 'A-2'] } }, token)).body.data.addPins).toEqual({ storedCount: 2, userErrors: [] });
    await stack.resetCalls();
    const { body } = await stack.gql(UPDATE, { input: { id, type: 'PROMO', acceptUrl: 'https://shop.example.ru/go' } }, token);
    expect(body.data.updateCampaign).toEqual({
      campaign: null,
      userErrors: [['type'], ['pinSettings', 'pinType'], ['pinSettings', 'displayType']].map((f) => ({
        field: ['input', ...f],
        code: 'NOT_ALLOWED_NOW',
        message: 'cannot change while the campaign holds 2 ONE_OFF pins',
      })),
    });
    expect(await stack.calls()).toEqual({ 'campaigns/get': 1, 'campaigns/info': 1 });
    // The same kind of change on a one-off campaign without codes is allowed.
    const empty = await createCampaign(stack, oneOffInput(7108), token);
    const allowed = await stack.gql(UPDATE, { input: { id: empty, pinSettings: { pinType: 'REUSABLE', couponCode: 'ALL' } } }, token);
    expect(allowed.body.data.updateCampaign.userErrors).toEqual([]);
  });

  it('a current value the campaign API refuses because of the change is named as current, not as sent', async () => {
    const { token, id } = await started(7105);
    // Dark enough for a background, too light for the white text the campaign already has.
    const { body } = await stack.gql(UPDATE, { input: { id, appearance: { backgroundColor: '#888888' } } }, token);
    expect(body.data.updateCampaign.campaign).toBeNull();
    expect(body.data.updateCampaign.userErrors).toEqual([
      {
        field: ['input', 'appearance', 'fontColor'],
        code: 'INCORRECT_DATA',
        message: expect.stringMatching(/^the campaign's current appearance\.fontColor \(not part of this update\) is refused: contrast with appearance\.backgroundColor #888888 is 3\.\d+:1/),
      },
    ]);
    expect((await read(id, token)).appearance.backgroundColor).toBe('#1A237E');
  });

  it('a FINISHED campaign: FAIL_FINISHED on id, never blaming a campaignEnd that was not sent; an end in the future revives it', async () => {
    // Fixture campaign 7 of the demo store is finished.
    const { body } = await stack.gql(UPDATE, { input: { id: '7', description: 'Снова в продаже' } });
    expect(body.data.updateCampaign).toEqual({
      campaign: null,
      userErrors: [
        {
          field: ['input', 'id'],
          code: 'FAIL_FINISHED',
          message: 'campaign 7 is FINISHED (its end has passed): updateCampaign changes it only together with an endsAt in the future, which sends it to moderation again',
        },
      ],
    });
    // An end that has passed too (the fixture ran from 60 to 30 days ago).
    const past = await stack.gql(UPDATE, { input: { id: '7', endsAt: future(-1) } });
    expect(past.body.data.updateCampaign.userErrors).toEqual([expect.objectContaining({ field: ['input', 'endsAt'], code: 'FAIL_FINISHED' })]);
    const revived = await stack.gql(UPDATE, { input: { id: '7', description: 'Снова в продаже', endsAt: future(10) } });
    expect(revived.body.data.updateCampaign).toMatchObject({ campaign: { id: cid(7), status: 'MODERATION' }, userErrors: [] });
  });

  it('checks the given fields alone before any call', async () => {
    const { body } = await stack.gql(UPDATE, { input: { id: '1', appearance: { fontColor: '#1A237F' }, fee: { amount: 'free' }, categoryId: '999', supportedPlatforms: [] } });
    expect(fields(body.data.updateCampaign.userErrors)).toEqual(['input.categoryId', 'input.fee.amount', 'input.supportedPlatforms']);
    expect(body.data.updateCampaign.userErrors.find((e: { field: string[] }) => e.field[1] === 'supportedPlatforms').message).toBe(
      'must list at least one platform; send null to show the offer on every device',
    );
    expect(await stack.calls()).toEqual({});
  });

  it('answers CAMPAIGN_NOT_FOUND on id for an unknown id, another partner\'s campaign and a malformed id', async () => {
    for (const id of ['987654', '9', 'abc']) {
      const { body } = await stack.gql(UPDATE, { input: { id, merchant: { name: 'X' } } });
      expect(body.data.updateCampaign).toEqual({ campaign: null, userErrors: [expect.objectContaining({ code: 'CAMPAIGN_NOT_FOUND', field: ['input', 'id'] })] });
    }
    expect((await stack.calls())['campaigns/update']).toBeUndefined();
  });

  it('two concurrent updates of different fields: the one written last wins on the whole record, as the schema says', async () => {
    const { token, id } = await started(7106);
    // Writes wait a second, so both updates read the campaign before either writes.
    await stack.admin('faults', { mode: 'latency', operation: 'campaigns/update', latencyMs: 1000 });
    const [name, description] = await Promise.all([
      stack.gql(UPDATE, { input: { id, merchant: { name: 'Первое имя' } } }, token),
      stack.gql(UPDATE, { input: { id, description: 'Второе описание' } }, token),
    ]);
    expect(name.body.data.updateCampaign.userErrors).toEqual([]);
    expect(description.body.data.updateCampaign.userErrors).toEqual([]);
    expect(await stack.calls()).toMatchObject({ 'campaigns/update': 2 });
    await stack.admin('faults', undefined, 'DELETE');
    // Each sent the record as it read it plus its own change: exactly one change survives.
    const after = await read(id, token);
    const outcomes = [
      { name: 'Первое имя', description: 'Скидка на всё' },
      { name: 'Магазин', description: 'Второе описание' },
    ];
    expect(outcomes).toContainEqual({ name: after.merchant.name, description: after.description });
  });
});

describe('partnerCampaignId: every integer the campaign API takes, up to 2^53 − 1', () => {
  const READ = `query ($id: ID!) { campaign(id: $id) { id partnerCampaignId merchant { name } } }`;

  it.each([3_000_000_000, Number.MAX_SAFE_INTEGER])('%d: created, read back and updated', async (partnerCampaignId) => {
    const token = await newPartner(stack, 'store');
    const id = await createCampaign(stack, promoInput(partnerCampaignId), token);
    const read = await stack.gql(READ, { id }, token);
    expect(read.body).toEqual({ data: { campaign: { id, partnerCampaignId, merchant: { name: 'Магазин' } } } });
    const { body } = await stack.gql(UPDATE, { input: { id, merchant: { name: 'Большой номер' } } }, token);
    expect(body.errors).toBeUndefined();
    expect(body.data.updateCampaign).toMatchObject({ campaign: { id, merchant: { name: 'Большой номер' } }, userErrors: [] });
    // Created again with the same id: the same campaign, its data replaced.
    expect(await createCampaign(stack, promoInput(partnerCampaignId, { merchant: { name: 'Снова' } }), token)).toBe(id);
    expect((await stack.gql(READ, { id }, token)).body.data.campaign).toEqual({ id, partnerCampaignId, merchant: { name: 'Снова' } });
  });

  it('2^53 is refused before anything is sent, naming the field', async () => {
    const { status, body } = await stack.gql(CREATE, { input: promoInput(2 ** 53) });
    expect(status).toBe(400);
    expect(body.errors).toEqual([
      expect.objectContaining({
        message: 'Variable "$input" got invalid value 9007199254740992 at "input.partnerCampaignId"; SafeInt cannot represent unsafe integer value: 9007199254740992',
        extensions: expect.objectContaining({ code: 'BAD_USER_INPUT' }),
      }),
    ]);
    const inline = await stack.gql(`mutation { createCampaign(input: { partnerCampaignId: 9007199254740992 }) { campaign { id } } }`);
    expect(inline.status).toBe(400);
    expect(inline.body.errors!.map((e: { message: string }) => e.message)).toContainEqual(expect.stringContaining('SafeInt cannot represent unsafe integer value: 9007199254740992'));
    expect(await stack.calls()).toEqual({});
  });
});
