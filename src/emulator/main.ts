// First: stack traces of everything below name the TypeScript sources.
import '../observability/source-maps.js';
import { ConfigError, readSettings } from '../config.js';
import { backend } from '../config/backend.js';
import { DEMO_TOKENS, startEmulator } from './index.js';

/**
 * `npm run emulator`: the emulator alone, on EMULATOR_PORT and EMULATOR_HOST (declared with the
 * BFF's settings, docs/configuration.md): 127.0.0.1:4010 unless they say otherwise.
 */

let settings;
try {
  settings = readSettings({ EMULATOR_PORT: backend.shape.EMULATOR_PORT, EMULATOR_HOST: backend.shape.EMULATOR_HOST });
} catch (error) {
  if (!(error instanceof ConfigError)) throw error;
  process.stderr.write(`campaign-api-emulator: ${error.message}\n`);
  process.exit(1);
}

const emulator = await startEmulator({ port: settings.EMULATOR_PORT, host: settings.EMULATOR_HOST });
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
