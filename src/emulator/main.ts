// First: stack traces of everything below name the TypeScript sources.
import '../observability/source-maps.js';
import { DEMO_TOKENS, startEmulator } from './index.js';

/** `npm run emulator`: the emulator alone, on EMULATOR_PORT (default 4010). */

function portFromEnv(): number {
  const raw = process.env.EMULATOR_PORT;
  if (raw === undefined || raw === '') return 4010;
  const port = Number(raw);
  if (!Number.isInteger(port) || port < 0 || port > 65_535) {
    process.stderr.write(`EMULATOR_PORT must be a port number 0..65535, got ${JSON.stringify(raw)}\n`);
    process.exit(2);
  }
  return port;
}

const emulator = await startEmulator({ port: portFromEnv(), host: process.env.EMULATOR_HOST ?? '127.0.0.1' });
process.stdout.write(
  [
    `Offer Campaign API emulator listening on ${emulator.url}`,
    `  operations: ${emulator.url}/v1/campaigns/... and ${emulator.url}/v1/categories/get`,
    `  admin API:  ${emulator.url}/_emulator/ (reset, moderation, moderate, clock, show, accept, faults, calls, partners)`,
    `  OpenAPI:    ${emulator.url}/openapi.json`,
    `  demo tokens: store "${DEMO_TOKENS.store}", aggregator "${DEMO_TOKENS.aggregator}"`,
    '',
  ].join('\n'),
);

let stopping = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    process.stdout.write(`${signal}: closing the emulator\n`);
    emulator.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  });
}
