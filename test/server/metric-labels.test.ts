import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_TOKENS } from '../../src/emulator/index.js';
import { createRequestRecorder } from '../../src/graphql/request-log.js';
import { createLogger } from '../../src/observability/logger.js';
import { createMetrics } from '../../src/observability/metrics.js';
import { DOCUMENTED_OPERATIONS } from '../../src/observability/operation-names.js';
import { CLIENT_ERROR_CODES, SERVER_ERROR_CODES } from '../../src/observability/outcomes.js';
import { labelValues, parseExposition, scrape } from '../helpers/scrape.js';
import { startStack, type Stack } from '../helpers/stack.js';

/**
 * The labels of the request metrics stay a bounded set whatever clients send: operation names are
 * the documented operations' and the trusted documents', any other is "other"; outcomes are `ok`,
 * `partial`, a listed error code or "other".
 */

const sha = (text: string) => createHash('sha256').update(text).digest('hex');
const TRUSTED = 'query PartnerDashboard { categories { id name } }';

async function send(stack: Stack, body: unknown): Promise<number> {
  const answer = await fetch(stack.bffUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${DEMO_TOKENS.store}` },
    body: JSON.stringify(body),
  });
  await answer.arrayBuffer();
  return answer.status;
}

describe('operation labels', () => {
  let dir: string;
  let stack: Stack;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'bff-labels-'));
    const manifest = join(dir, 'persisted-documents.json');
    writeFileSync(manifest, JSON.stringify({ [sha(TRUSTED)]: TRUSTED }));
    stack = await startStack({ env: { TRUSTED_DOCUMENTS: manifest } });
  });
  afterAll(async () => {
    await stack?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('1000 operation names a client made up are one label, "other"; documented and trusted names keep theirs', async () => {
    const names = Array.from({ length: 1000 }, (_, i) => `Made${i}Up`);
    for (let i = 0; i < names.length; i += 20) {
      const statuses = await Promise.all(names.slice(i, i + 20).map((name) => send(stack, { query: `query ${name} { categories { id } }` })));
      expect(statuses.every((status) => status === 200)).toBe(true);
    }
    expect(await send(stack, { query: 'query Categories { categories { id } }' })).toBe(200);
    expect(await send(stack, { documentId: `sha256:${sha(TRUSTED)}` })).toBe(200);
    expect(await send(stack, { query: '{ categories { id } }' })).toBe(200);

    const samples = await scrape(stack.metricsUrl);
    const operations = labelValues(samples, 'bff_graphql_requests_total', 'operation');
    expect([...operations].sort()).toEqual(['Categories', 'PartnerDashboard', 'anonymous', 'other']);
    const other = samples.find((s) => s.name === 'bff_graphql_requests_total' && s.labels.operation === 'other' && s.labels.outcome === 'ok');
    expect(other?.value).toBe(1000);
    // The histogram has the same labels: 1000 names do not make 1000 sets of buckets.
    expect([...labelValues(samples, 'bff_graphql_request_duration_seconds_bucket', 'operation')].sort()).toEqual([...operations].sort());
  });
});

describe('outcome labels', () => {
  const logger = createLogger('silent');
  const request = (code: string | undefined, hasData = false) => ({
    meta: { requestId: 'r', backend: { calls: 0 } },
    operationName: 'Categories',
    operationType: 'query',
    errors: code === undefined ? [] : [{ message: code, extensions: { code } }],
    hasData,
    durationMs: 1,
    path: 'apollo' as const,
  });

  it('an error code not listed is "other", however many there are; listed codes, ok and partial are kept', async () => {
    const metrics = createMetrics();
    const recorder = createRequestRecorder(metrics, logger);
    for (let i = 0; i < 1000; i++) recorder.record(request(`MADE_UP_${i}`));
    for (const code of [...SERVER_ERROR_CODES, ...CLIENT_ERROR_CODES]) recorder.record(request(code));
    recorder.record(request(undefined));
    recorder.record(request('BACKEND_UNAVAILABLE', true));

    const samples = parseExposition(await metrics.registry.metrics());
    const outcomes = labelValues(samples, 'bff_graphql_requests_total', 'outcome');
    expect([...outcomes].sort()).toEqual(['ok', 'other', 'partial', ...SERVER_ERROR_CODES, ...CLIENT_ERROR_CODES].sort());
    expect(samples.find((s) => s.name === 'bff_graphql_requests_total' && s.labels.outcome === 'other')?.value).toBe(1000);
  });

  it('the known operation names are an option: by default the documented operations', async () => {
    const metrics = createMetrics();
    createRequestRecorder(metrics, logger).record({ ...request(undefined), operationName: DOCUMENTED_OPERATIONS[0] });
    const own = createRequestRecorder(metrics, logger, { knownOperations: ['Mine'] });
    own.record({ ...request(undefined), operationName: 'Mine' });
    own.record({ ...request(undefined), operationName: DOCUMENTED_OPERATIONS[0] });
    const samples = parseExposition(await metrics.registry.metrics());
    const count = (operation: string) => samples.find((s) => s.name === 'bff_graphql_requests_total' && s.labels.operation === operation)?.value;
    expect([count(DOCUMENTED_OPERATIONS[0]!), count('Mine'), count('other')]).toEqual([1, 1, 1]);
  });
});
