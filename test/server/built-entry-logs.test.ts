import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { DEMO_TOKENS } from '../../src/emulator/index.js';
import { startBuiltEntry, type BuiltEntry } from '../helpers/built-entry.js';

/**
 * The request log of the product as `npm start` runs it, at its default log level: a line per
 * request on stdout, there even when the process is killed right after answering, since an answer
 * leaves only after its line is written. (The order of lines and answers within a turn, which a
 * kill can catch only now and then, is test/unit/logger.test.ts.)
 */
describe('the built entry’s request log', () => {
  let bff: BuiltEntry | undefined;
  afterEach(async () => bff?.stop());

  it('has written every answered request’s line when the process is killed right after the answers', async () => {
    bff = await startBuiltEntry();
    const ids = Array.from({ length: 20 }, (_, i) => `killed-after-${i}`);
    const answers = await Promise.all(
      ids.map((id) =>
        fetch(bff!.url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${DEMO_TOKENS.store}`, 'x-request-id': id },
          body: JSON.stringify({ query: 'query Logged { categories { id } }' }),
        }),
      ),
    );
    expect(answers.map((answer) => answer.status)).toEqual(ids.map(() => 200));
    bff.child.kill('SIGKILL');
    expect((await bff.exited).signal).toBe('SIGKILL');

    const lines = bff.logs().filter((line) => line.msg === 'graphql request');
    expect(lines.map((line) => line.requestId).sort()).toEqual([...ids].sort());
    for (const line of lines) expect(line).toMatchObject({ level: 30, operation: 'Logged', outcome: 'ok' });
  });
});

describe('the built entry’s output when WebSocket clients send frames they may not', () => {
  let bff: BuiltEntry | undefined;
  afterEach(async () => bff?.stop());

  it('closes such sockets with the protocol’s codes and writes no stack trace, nor anything but JSON lines', async () => {
    bff = await startBuiltEntry({ env: { NODE_ENV: 'production', CAMPAIGN_API_URL: 'http://127.0.0.1:9' } });
    const socketUrl = bff.url.replace(/^http/, 'ws');
    const closeOf = async (send: (socket: WebSocket) => void) => {
      const socket = new WebSocket(socketUrl, 'graphql-transport-ws');
      await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
      const closed = new Promise<number>((resolve) => socket.once('close', (code) => resolve(code)));
      send(socket);
      return closed;
    };
    const before = bff.output().length;
    for (let i = 0; i < 3; i++) {
      expect(await closeOf((socket) => socket.send(JSON.stringify({ type: 'connection_init', payload: { padding: 'x'.repeat(70_000) } })))).toBe(1009);
      expect(await closeOf((socket) => socket.send(Buffer.from([0x7b, 0xe9, 0x7d]), { binary: false }))).toBe(1007);
    }
    // Still serving, and the answer to the next request is written as a JSON line like any other.
    expect((await fetch(bff.url.replace('/graphql', '/healthz'))).status).toBe(200);
    const written = bff.output().slice(before);
    expect(written).not.toMatch(/Internal error|\n\s+at /);
    for (const line of written.split('\n').filter(Boolean)) expect(() => JSON.parse(line), line).not.toThrow();
  });
});
