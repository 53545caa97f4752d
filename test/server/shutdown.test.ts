import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** The real process entry, as `npm start` runs it, stopped by a signal in the middle of a request. */
describe('graceful shutdown', () => {
  it.each(['SIGTERM', 'SIGINT'] as const)('on %s finishes the request in flight, refuses new ones and exits 0', async (signal) => {
    const [port, emulatorPort] = [await freePort(), await freePort()];
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
      env: { ...process.env, PORT: String(port), EMULATOR_PORT: String(emulatorPort), HOST: '127.0.0.1', LOG_LEVEL: 'warn', SHUTDOWN_GRACE_MS: '5000' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (c: Buffer) => (output += c.toString()));
    child.stderr.on('data', (c: Buffer) => (output += c.toString()));
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    try {
      const deadline = Date.now() + 15_000;
      while (!output.includes('demo tokens') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      expect(output).toContain(`http://127.0.0.1:${port}/graphql`);

      const url = `http://127.0.0.1:${port}/graphql`;
      await fetch(`http://127.0.0.1:${emulatorPort}/_emulator/faults`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ mode: 'latency', latencyMs: 1000, operation: 'campaigns/get' }),
      });
      const inFlight = fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ query: '{ campaign(id: "1") { id card { title } } }' }),
      }).then(async (r) => ({ status: r.status, body: (await r.json()) as any }));
      await new Promise((r) => setTimeout(r, 300));
      child.kill(signal);
      await new Promise((r) => setTimeout(r, 200));

      await expect(fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"query":"{ __typename }"}' })).rejects.toThrow();
      const answer = await inFlight;
      expect(answer.status).toBe(200);
      expect(answer.body.data.campaign).toMatchObject({ id: '1', card: { title: expect.any(String) } });
      expect(await exited).toBe(0);
    } finally {
      child.kill('SIGKILL');
    }
  });
});
