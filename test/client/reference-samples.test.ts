import { samples, type Sample } from '../fixtures/reference-samples.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { interpretResponse } from '../../src/campaign-api/envelope.js';
import { OPERATION_NAMES, operations, type OperationName } from '../../src/campaign-api/operations.js';
import { closeAllClients, recordingClient } from './support/clients.js';
import { json, startTestServer, type TestServer } from './support/test-server.js';

/** What a caller gets: `result`, or the top level less the envelope's own keys. */
function expectedPayload(sample: Sample): unknown {
  if (operations[sample.operation].wrapping === 'result') return sample.response.result;
  const { status: _status, errors: _errors, ...rest } = sample.response;
  return rest;
}

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await closeAllClients();
  await server.close();
});

describe('the reference samples, parsed by the client', () => {
  it('cover every operation', () => {
    expect(new Set(samples.map((s) => s.sample.operation))).toEqual(new Set(OPERATION_NAMES));
  });

  for (const { file, sample } of samples) {
    it(`${file}: the sample answer parses to its payload, unchanged`, () => {
      expect(interpretResponse(sample.operation, 200, JSON.stringify(sample.response))).toEqual({
        kind: 'success',
        value: expectedPayload(sample),
      });
    });

    it(`${file}: served over HTTP, the client returns the payload for the sample request`, async () => {
      server.respond(json(200, sample.response));
      const { client, last } = recordingClient(server.url);
      const method = client[sample.operation] as (token: string, request: unknown) => Promise<unknown>;
      await expect(method('ACCESS_TOKEN', sample.request.body ?? {})).resolves.toEqual(expectedPayload(sample));
      expect(last()).toMatchObject({ operation: sample.operation, outcome: 'success', attempts: 1 });
      const sent = server.seen.at(-1)!;
      expect(sent.url).toBe(`/v1/${operations[sample.operation].path}`);
      expect(JSON.parse(sent.body)).toEqual(sample.request.body ?? {});
    });
  }

  it("keeps the samples' campaignType code as a known value", () => {
    const get = samples.find((s) => s.sample.operation === 'get')!.sample;
    const verdict = interpretResponse('get', 200, JSON.stringify(get.response));
    expect(verdict.kind === 'success' && verdict.value.campaignType).toBe('code');
  });
});

