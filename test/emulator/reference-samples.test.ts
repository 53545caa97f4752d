import { describe, expect, it } from 'vitest';
import { samples } from '../fixtures/reference-samples.js';
import { operations, OPERATION_NAMES, type OperationName } from '../../src/campaign-api/index.js';
import { STORE, useEmulator } from './support.js';

function payloadOf(name: OperationName, body: Record<string, unknown>): unknown {
  if (operations[name].wrapping === 'result') return body.result;
  const { status: _status, ...rest } = body;
  return rest;
}

/** Same keys with the same JSON types, recursively (arrays by their first element). */
function shapeOf(value: unknown): unknown {
  if (Array.isArray(value)) return value.length ? [shapeOf(value[0])] : [];
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, shapeOf(v)]));
  return typeof value;
}

describe('the reference samples, replayed', () => {
  const env = useEmulator();

  it('there is a sample for every operation', () => {
    expect(new Set(samples.map((s) => s.sample.operation))).toEqual(new Set(OPERATION_NAMES));
  });

  it('the samples use both Authorization forms, ymCampaignId, campaignType code and errors: {}', () => {
    const auth = samples.map((s) => s.sample.request.headers.Authorization);
    expect(auth.some((a) => a?.startsWith('Bearer: '))).toBe(true);
    expect(auth.some((a) => a?.startsWith('Bearer ') && !a.startsWith('Bearer:'))).toBe(true);
    const byOp = Object.fromEntries(samples.map((s) => [s.sample.operation, s.sample]));
    for (const op of ['get', 'info', 'start', 'stop', 'addPins', 'redeem', 'getPinsByStatus'] as const) expect(byOp[op]!.request.body).toHaveProperty('ymCampaignId');
    expect((byOp.get!.response.result as Record<string, unknown>).campaignType).toBe('code');
    expect(byOp.stop!.response.errors).toEqual({});
    expect(Array.isArray((byOp.addPins!.request.body as { pinList: unknown }).pinList)).toBe(true);
  });

  for (const { file, sample } of samples) {
    it(`${file}: the sample answer fits the contract, and the emulator accepts the request and answers in the same shape`, async () => {
      const name = sample.operation;
      expect(sample.response.status).toBe('success');
      const contract = operations[name].response.safeParse(payloadOf(name, sample.response));
      expect(contract.success, JSON.stringify(contract.error?.issues)).toBe(true);

      const headers = { ...sample.request.headers, Authorization: sample.request.headers.Authorization!.replace('ACCESS_TOKEN', STORE) };
      const body = sample.request.body === null ? undefined : JSON.stringify(sample.request.body);
      const answer = await env.client.raw(`/v1/${operations[name].path}`, { headers, body });
      expect(answer.status, answer.text).toBe(200);
      expect(answer.body.status).toBe('success');
      const payload = payloadOf(name, answer.body);
      expect(operations[name].response.safeParse(payload).success).toBe(true);

      // Every field of the sample is answered, with the same JSON type.
      const mine = shapeOf(answer.body) as Record<string, unknown>;
      expect(mine).toMatchObject(shapeOf(sample.response) as Record<string, unknown>);
      const status = (payload as { campaignStatus?: unknown }).campaignStatus;
      const sampleStatus = (payloadOf(name, sample.response) as { campaignStatus?: unknown }).campaignStatus;
      if (sampleStatus !== undefined) expect(status).toBe(sampleStatus);
    });
  }
});
