import { maxHeaderSize, request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack } from '../helpers/stack.js';

/**
 * Requests Node's HTTP parser refuses before any handler sees them: each is answered with a status
 * and a GraphQL error body of its own length, and the connection ends without a reset, with what
 * the client still sends read and thrown away, within bounds.
 */

let stack: Stack;

beforeAll(async () => {
  stack = await startStack();
});
afterAll(async () => {
  await stack?.close();
});

interface Exchange {
  text: string;
  /** The socket error the client saw (ECONNRESET for a reset), if any. */
  error?: string;
  /** The server ended the connection (a FIN), rather than a reset or nothing. */
  ended: boolean;
}

/** Writes `chunks` on a fresh connection, then reads until the server closes it. */
function exchange(chunks: Array<string | Buffer>): Promise<Exchange> {
  const { hostname, port } = new URL(stack.bffUrl);
  return new Promise((resolve) => {
    const socket = connect(Number(port), hostname);
    let text = '';
    let error: string | undefined;
    let ended = false;
    socket.on('data', (chunk: Buffer) => (text += chunk.toString('latin1')));
    socket.on('end', () => {
      ended = true;
      socket.end();
    });
    socket.on('error', (e: NodeJS.ErrnoException) => (error = e.code ?? e.message));
    socket.on('close', () => resolve({ text, ended, ...(error ? { error } : {}) }));
    socket.once('connect', () => {
      for (const chunk of chunks) socket.write(chunk);
    });
  });
}

const bodyOf = (text: string) => JSON.parse(text.slice(text.indexOf('\r\n\r\n') + 4)) as { errors: Array<{ message: string; extensions: { code: string } }> };

const hugeUrl = (bytes: number) => `GET /graphql?query=${'%7B'.repeat(Math.ceil(bytes / 3))} HTTP/1.1\r\nhost: bff\r\napollo-require-preflight: true\r\n\r\n`;

describe('requests the HTTP parser refuses', () => {
  it('a request line past the header limit: 431 naming the limit, then a clean close while the client is still sending', async () => {
    // 1 MB: far more than the server reads before refusing, so most of it is still unread then.
    const answer = await exchange([hugeUrl(1024 * 1024)]);
    expect(answer.error, 'no reset').toBeUndefined();
    expect(answer.ended).toBe(true);
    expect(answer.text).toMatch(/^HTTP\/1\.1 431 Request Header Fields Too Large\r\n/);
    expect(answer.text.toLowerCase()).toContain('connection: close');
    const length = Number(/content-length: (\d+)/i.exec(answer.text)?.[1]);
    expect(length).toBe(Buffer.byteLength(answer.text.slice(answer.text.indexOf('\r\n\r\n') + 4)));
    expect(bodyOf(answer.text).errors).toEqual([
      {
        message: `The request line and headers are over the limit of ${maxHeaderSize} bytes. Send a long query by POST, in the body.`,
        extensions: { code: 'BAD_REQUEST' },
      },
    ]);
    expect((await stack.gql('{ categories { id } }')).status).toBe(200);
  });

  it("reaches Node's own HTTP client as a 431 with its body", async () => {
    const url = new URL(stack.bffUrl);
    const answer = await new Promise<{ status: number; text: string }>((resolve, reject) => {
      const req = httpRequest({ host: url.hostname, port: url.port, path: `/graphql?query=${'%7B'.repeat(34_000)}`, headers: { 'apollo-require-preflight': 'true' } }, (res) => {
        let text = '';
        res.on('data', (chunk) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
      });
      req.on('error', reject);
      req.end();
    });
    expect(answer.status).toBe(431);
    expect(JSON.parse(answer.text).errors[0].message).toContain(`over the limit of ${maxHeaderSize} bytes`);
  });

  it('bytes that are not HTTP: 400 saying what the parser could not read', async () => {
    const answer = await exchange(['HELLO /graphql HTTP/1.1\r\nhost: bff\r\n\r\n']);
    expect(answer.error).toBeUndefined();
    expect(answer.text).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
    const [error] = bodyOf(answer.text).errors;
    expect(error!.message).toMatch(/^The request is not valid HTTP\/1\.1: Parse Error: .+\.$/);
    expect(error!.message).not.toContain('HELLO');
    expect(error!.extensions.code).toBe('BAD_REQUEST');
  });

  it('after an answered request on a keep-alive connection, the next one refused is answered too', async () => {
    const query = JSON.stringify({ query: '{ categories { id } }' });
    const first = `POST /graphql HTTP/1.1\r\nhost: bff\r\nauthorization: Bearer demo-store-token\r\ncontent-type: application/json\r\ncontent-length: ${query.length}\r\n\r\n${query}`;
    const { hostname, port } = new URL(stack.bffUrl);
    const socket = connect(Number(port), hostname);
    let text = '';
    socket.on('data', (chunk: Buffer) => (text += chunk.toString('latin1')));
    const closed = new Promise<string | undefined>((resolve) => {
      let error: string | undefined;
      socket.on('error', (e: NodeJS.ErrnoException) => (error = e.code));
      socket.on('end', () => socket.end());
      socket.on('close', () => resolve(error));
    });
    socket.write(first);
    while (!text.includes('"categories"')) await new Promise((r) => setTimeout(r, 10));
    socket.write(hugeUrl(64 * 1024));
    expect(await closed).toBeUndefined();
    expect(text).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
    expect(text).toMatch(/\r\n\r\n\{"data":\{"categories":.*HTTP\/1\.1 431 Request Header Fields Too Large\r\n/s);
  });

  it('a refused request right behind one still being answered closes the connection, writing nothing into that answer', async () => {
    const query = JSON.stringify({ query: '{ campaigns(first: 5) { nodes { id } } }' });
    const first = `POST /graphql HTTP/1.1\r\nhost: bff\r\nauthorization: Bearer demo-store-token\r\ncontent-type: application/json\r\ncontent-length: ${query.length}\r\n\r\n${query}`;
    // Both in one write: the parser reads the second while the first is at its backend call.
    const answer = await exchange([first + hugeUrl(64 * 1024)]);
    expect(answer.text).not.toContain(' 431 ');
    expect(answer.text).not.toContain(' 400 ');
    expect((await stack.gql('{ categories { id } }')).status).toBe(200);
  });

  it('a client that keeps sending after the refusal is cut off, within the bound', async () => {
    const { hostname, port } = new URL(stack.bffUrl);
    // Half-open: the server's end of the answer does not end the client's side.
    const socket = connect({ port: Number(port), host: hostname, allowHalfOpen: true });
    let text = '';
    socket.on('data', (chunk: Buffer) => (text += chunk.toString('latin1')));
    socket.on('error', () => {});
    const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
    socket.write(hugeUrl(64 * 1024));
    const trickle = setInterval(() => socket.writable && socket.write('x'.repeat(1024)), 50);
    await closed;
    clearInterval(trickle);
    expect(text).toMatch(/^HTTP\/1\.1 431 /);
  }, 15_000);
});
