import Ajv2020 from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { operations, OPERATION_NAMES } from '../../src/campaign-api/index.js';
import { buildOpenApiDocument } from '../../src/campaign-api/openapi.js';
import { STORE, campaignBody, useEmulator } from './support.js';

type Doc = ReturnType<typeof buildOpenApiDocument> & { paths: Record<string, any>; components: { schemas: Record<string, unknown> } };

/** Compiles the document's component schemas with a strict JSON Schema 2020-12 validator. */
function validators(doc: Doc) {
  const ajv = new Ajv2020.default({ strict: true, allErrors: true, validateFormats: false });
  const defs = JSON.parse(JSON.stringify(doc.components.schemas).replaceAll('#/components/schemas/', '#/$defs/'));
  ajv.addSchema({ $id: 'https://emulator.local/components', $defs: defs });
  return (name: string) => ajv.compile({ $ref: `https://emulator.local/components#/$defs/${name}` });
}

describe('GET /openapi.json', () => {
  const env = useEmulator();

  it('is an OpenAPI 3.1 document of all 11 operations with bearer auth', async () => {
    const answer = await env.client.raw('/openapi.json', { method: 'GET' });
    expect(answer.status).toBe(200);
    const doc = answer.body as Doc;
    expect(doc).toEqual(JSON.parse(JSON.stringify(buildOpenApiDocument())));
    expect(doc.openapi).toBe('3.1.0');
    expect(Object.keys(doc.paths).sort()).toEqual(OPERATION_NAMES.map((n) => `/v1/${operations[n].path}`).sort());
    for (const name of OPERATION_NAMES) {
      const post = doc.paths[`/v1/${operations[name].path}`].post;
      expect(post.operationId).toBe(name);
      expect(Object.keys(post.responses)).toEqual(expect.arrayContaining(['200', '400', '401', '413']));
    }
    expect(doc.paths['/v1/campaigns/stop'].post.responses['403']).toBeDefined();
    expect(doc.paths['/v1/campaigns/start'].post.responses['409'].description).toMatch(/failPin/);
    expect((doc.components as any).securitySchemes.partnerToken).toMatchObject({ type: 'http', scheme: 'bearer' });
  });

  it('every schema compiles as strict JSON Schema 2020-12', () => {
    const doc = buildOpenApiDocument() as Doc;
    const compile = validators(doc);
    for (const name of Object.keys(doc.components.schemas)) expect(() => compile(name), name).not.toThrow();
  });

  it('real requests and answers of the emulator validate against the document', async () => {
    const compile = validators(buildOpenApiDocument() as Doc);
    const requests: Record<string, unknown> = {
      create: campaignBody('promo'),
      update: { partnerCampaignId: 1001, merchantName: 'Новый' },
      get: { ymCampaignId: 1 },
      info: { ymCampaignId: 1 },
      start: { ymCampaignId: 2 },
      stop: { ymCampaignId: 3 },
      redeem: { ymCampaignId: 1, pinContent: 'TECHNO-0004', transactionId: 'oa-1', campaignFee: '1.00' },
      addPins: { ymCampaignId: 1, pinList: ['OA-1'] },
      getAllCampaigns: { limit: 100, offset: 0 },
      getPinsByStatus: { ymCampaignId: 1, pinStatus: 'redeem_received' },
      getCategories: {},
    };
    for (const name of OPERATION_NAMES) {
      const type = name[0]!.toUpperCase() + name.slice(1);
      const request = compile(`${type}Request`);
      expect(request(requests[name]), `${name} request: ${JSON.stringify(request.errors)}`).toBe(true);
      const answer = await env.client.call(name, requests[name], STORE);
      const success = compile(`${type}Success`);
      expect(success(answer.body), `${name} answer: ${JSON.stringify(success.errors)}`).toBe(true);
    }
    const envelope = compile('ErrorEnvelope');
    for (const body of [{ ymCampaignId: 999 }, {}, { ymCampaignId: 4 }]) {
      const error = await env.client.call('start', body);
      expect(error.status).toBeGreaterThanOrEqual(400);
      expect(envelope(error.body), JSON.stringify(envelope.errors)).toBe(true);
    }
    // And what breaks the contract does not validate.
    expect(compile('GetRequest')({ ymCampaignId: 'one' })).toBe(false);
    expect(compile('InfoSuccess')({ status: 'success', result: { ymCampaignId: 1 } })).toBe(false);
  });
});
