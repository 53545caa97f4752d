import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { BusinessError, HttpStatusError } from '../../src/campaign-api/errors.js';
import type { CampaignWrite } from '../../src/campaign-api/writes.js';
import { failure, recordingClient, useTestServer } from './support/clients.js';
import { json, text } from './support/test-server.js';

const TOKEN = 'secret-partner-token-4711';

const testServer = useTestServer();

/** A client on the test server and every write event it announces, as plain fields with the token. */
function listening() {
  const { client } = recordingClient(testServer().url, { maxAttempts: 1 });
  const writes: (Pick<CampaignWrite, 'operation' | 'outcome' | 'campaignId' | 'status'> & { token: string })[] = [];
  const stop = client.onWrite((w) => writes.push({ operation: w.operation, token: w.token, outcome: w.outcome, campaignId: w.campaignId, status: w.status }));
  return { client, writes, stop };
}

describe('the client announces its writes', () => {
  it('a successful write tells what it left the campaign in, before its caller goes on; reads tell nothing', async () => {
    const { client, writes } = listening();
    testServer().respond(json(200, { status: 'success', result: { ymCampaignId: 7, campaignStatus: 'paused' } }));
    await client.stop(TOKEN, { ymCampaignId: 7 });
    // Synchronously after the await: the listener ran before the caller's promise settled.
    expect(writes).toEqual([{ operation: 'stop', token: TOKEN, outcome: 'done', campaignId: 7, status: 'paused' }]);

    testServer().respond(json(200, { status: 'success', result: { ymCampaignId: 8, campaignStatus: 'moderation' } }));
    await client.create(TOKEN, { partnerCampaignId: 1 });
    expect(writes.at(-1)).toEqual({ operation: 'create', token: TOKEN, outcome: 'done', campaignId: 8, status: 'moderation' });

    testServer().respond(json(200, { status: 'success', result: { ymCampaignId: 8, transactionId: 't-1', state: 'accepted' } }));
    await client.redeem(TOKEN, { ymCampaignId: 8, transactionId: 't-1' } as Parameters<typeof client.redeem>[1]);
    expect(writes.at(-1)).toEqual({ operation: 'redeem', token: TOKEN, outcome: 'done', campaignId: 8, status: undefined });

    testServer().respond(json(200, { status: 'success', total: 0, campaigns: [] }));
    await client.getAllCampaigns(TOKEN, { limit: 1, offset: 0 });
    expect(writes).toHaveLength(3);
  });

  it("a refusal for the state of the caller's own campaign tells its status; one for another partner's campaign tells nothing of it", async () => {
    const { client, writes } = listening();
    testServer().respond(json(409, { status: 'error', errors: { code: 'failFinished', message: 'archived' }, result: { ymCampaignId: 7, campaignStatus: 'finished' } }));
    expect((await failure(client.start(TOKEN, { ymCampaignId: 7 }))).error).toBeInstanceOf(BusinessError);
    expect(writes).toEqual([{ operation: 'start', token: TOKEN, outcome: 'refused', campaignId: 7, status: 'finished' }]);

    testServer().respond(json(403, { status: 'error', errors: { code: 'failMerchant', message: 'not yours' }, result: { ymCampaignId: 9, campaignStatus: 'started' } }));
    expect((await failure(client.stop(TOKEN, { ymCampaignId: 9 }))).error).toMatchObject({ code: 'failMerchant', current: { ymCampaignId: 9 } });
    expect(writes.at(-1)).toEqual({ operation: 'stop', token: TOKEN, outcome: 'refused', campaignId: undefined, status: undefined });
  });

  it('a write whose answer was lost is announced as unknown, with the campaign it named', async () => {
    const { client, writes } = listening();
    testServer().respond(text(500, 'boom'));
    expect((await failure(client.addPins(TOKEN, { ymCampaignId: 5, pinList: ['A'] }))).error).toBeInstanceOf(HttpStatusError);
    expect(writes).toEqual([{ operation: 'addPins', token: TOKEN, outcome: 'unknown', campaignId: 5, status: undefined }]);
  });

  it('a throwing listener fails neither the write nor the listeners after it; a stopped one hears nothing more', async () => {
    const { client, writes, stop } = listening();
    const warnings: string[] = [];
    const onWarning = (warning: Error) => warnings.push(warning.message);
    process.on('warning', onWarning);
    try {
      const stopThrowing = client.onWrite(() => {
        throw new Error('listener bug');
      });
      const after: string[] = [];
      client.onWrite((w) => after.push(w.operation));
      testServer().respond(json(200, { status: 'success', result: { ymCampaignId: 7, campaignStatus: 'started' } }));
      await expect(client.start(TOKEN, { ymCampaignId: 7 })).resolves.toEqual({ ymCampaignId: 7, campaignStatus: 'started' });
      expect(after).toEqual(['start']);
      await new Promise((resolve) => setImmediate(resolve));
      expect(warnings.some((w) => w.includes('listener bug'))).toBe(true);

      stopThrowing();
      stop();
      await client.start(TOKEN, { ymCampaignId: 7 });
      expect(writes).toHaveLength(1);
      expect(after).toEqual(['start', 'start']);
    } finally {
      process.off('warning', onWarning);
    }
  });

  it('an event gives its listener the token, yet holds none in its JSON or its inspection', async () => {
    const { client } = recordingClient(testServer().url);
    let seen: CampaignWrite | undefined;
    client.onWrite((w) => (seen = w));
    testServer().respond(json(200, { status: 'success', result: { ymCampaignId: 7, campaignStatus: 'paused' } }));
    await client.stop(TOKEN, { ymCampaignId: 7 });
    expect(seen!.token).toBe(TOKEN);
    expect(JSON.stringify(seen)).not.toContain(TOKEN);
    expect(inspect(seen, { depth: 5, showHidden: true })).not.toContain(TOKEN);
    expect(JSON.parse(JSON.stringify(seen))).toEqual({ operation: 'stop', outcome: 'done', campaignId: 7, status: 'paused' });
  });
});
