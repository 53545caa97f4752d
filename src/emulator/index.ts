import type { AddressInfo } from 'node:net';
import { DEFAULT_MODERATION_DELAY_MS } from './lifecycle.js';
import { createEmulatorServer, HEADER_LIMIT_BYTES } from './server.js';

export { DEMO_TOKENS, CATEGORIES } from './demo.js';
export { MAX_PINS_PER_CALL } from './handlers.js';
export { MAX_BODY_BYTES } from './http-io.js';
export { FAULT_MODES, type FaultMode } from './faults.js';
export { HEADER_LIMIT_BYTES } from './server.js';

export interface EmulatorOptions {
  /** Default 0: any free port. */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  /** Default auto with a short delay (1500 ms of emulator clock), so the demo moves on by itself. */
  moderation?: { mode: 'auto' | 'manual'; delayMs?: number };
  /** No log lines at all (the emulator never logs per request anyway). */
  quiet?: boolean;
  /**
   * The longest request line and headers answered, in bytes; a longer head gets a bare 400.
   * Default `HEADER_LIMIT_BYTES`, the campaign API's own; lower, it stands for a proxy in front
   * that allows less.
   */
  headerLimitBytes?: number;
}

export interface RunningEmulator {
  /** http://127.0.0.1:PORT; operations at `${url}/v1/...`, admin at `${url}/_emulator/...`. */
  url: string;
  port: number;
  close(): Promise<void>;
}

/** Starts the campaign REST API emulator in this process, filled with the fixtures. */
export async function startEmulator(options: EmulatorOptions = {}): Promise<RunningEmulator> {
  const host = options.host ?? '127.0.0.1';
  const emulator = createEmulatorServer({
    moderation: { mode: options.moderation?.mode ?? 'auto', delayMs: options.moderation?.delayMs ?? DEFAULT_MODERATION_DELAY_MS },
    quiet: options.quiet ?? false,
    headerLimitBytes: options.headerLimitBytes ?? HEADER_LIMIT_BYTES,
  });
  const { server } = emulator;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  const urlHost = host.includes(':') ? `[${host}]` : host;
  let closing: Promise<void> | null = null;
  return {
    url: `http://${urlHost}:${port}`,
    port,
    close() {
      closing ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        emulator.shutdown();
      });
      return closing;
    },
  };
}
