import { randomBytes } from 'node:crypto';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { coded, codingFor } from '../../src/http/compression.js';

describe('compressed copies of a kept body', () => {
  const json = Buffer.from(JSON.stringify({ data: { offerFeed: { nodes: Array.from({ length: 50 }, (_, i) => ({ id: String(i), card: { title: `Offer ${i}`, discountLabel: '-10%' } })) } } }));

  it('compresses a body once per coding while its owner lives, and waits for that one compression', async () => {
    const owner = {};
    const first = coded(json, 'br', owner);
    const meanwhile = coded(json, 'br', owner);
    expect(meanwhile).toBe(first);
    const bytes = await first;
    expect(brotliDecompressSync(bytes).equals(json)).toBe(true);
    // Kept: handed back as it is, with no compression and no wait.
    expect(coded(json, 'br', owner)).toBe(bytes);
    const gzip = await coded(json, 'gzip', owner);
    expect(gunzipSync(gzip).equals(json)).toBe(true);
    expect(coded(json, 'gzip', owner)).toBe(gzip);
    // Another owner, or none: compressed for itself.
    expect(coded(json, 'br', {})).toBeInstanceOf(Promise);
    expect(coded(json, 'br')).toBeInstanceOf(Promise);
  });

  it('keeps no copy of a body that hardly shrinks (it would take more room than its allowance)', async () => {
    const noise = randomBytes(4096);
    const owner = {};
    await coded(noise, 'gzip', owner);
    expect(coded(noise, 'gzip', owner)).toBeInstanceOf(Promise);
  });

  it('reads the quality values of Accept-Encoding (RFC 9110)', () => {
    expect(codingFor('gzip, deflate, br, zstd')).toBe('br');
    expect(codingFor(['gzip', 'br;q=0.1'])).toBe('gzip');
    expect(codingFor('br;q=0.000')).toBe('identity');
    expect(codingFor('x-gzip')).toBe('gzip');
    expect(codingFor('gzip;q=1.0, identity;q=1')).toBe('gzip');
    expect(codingFor('gzip;q=0.5, identity;q=0.8')).toBe('identity');
    expect(codingFor(undefined)).toBe('identity');
  });
});
