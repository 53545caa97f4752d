import { parse, type OperationDefinitionNode, type ResponsePath } from 'graphql';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { TRACE_TEXT_MAX, traceResponsePath, traceText } from '../../src/tracing/text.js';

const MB = 1024 * 1024;

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;
const heapAfterGc = () => {
  gc();
  gc();
  return process.memoryUsage().heapUsed;
};

const path = (...keys: (string | number)[]): ResponsePath =>
  keys.reduce<ResponsePath | undefined>((prev, key) => ({ prev, key, typename: undefined }), undefined)!;

describe('text on spans', () => {
  it('cuts text to at most TRACE_TEXT_MAX code units, marking the cut, never inside a surrogate pair', () => {
    expect(traceText('campaigns')).toBe('campaigns');
    const cut = traceText('n'.repeat(MB));
    expect(cut).toHaveLength(TRACE_TEXT_MAX);
    expect(cut).toBe(`${'n'.repeat(TRACE_TEXT_MAX - 1)}\u2026`);
    expect(traceText('abcdef', 4)).toBe('abc\u2026');
    // An emoji (two code units) across the cut is left out whole.
    expect(traceText(`ab\u{1F600}cd`, 4)).toBe('ab\u2026');
  });

  it('keeps no part of the string it was cut from alive: a short name of a large document holds only itself', () => {
    const before = heapAfterGc();
    const kept: string[] = [];
    for (let i = 0; i < 40; i++) {
      // The parser hands out names as slices of the document.
      const document = `query Operation${i}WithAName { campaigns { nodes { id } } } ${'#'.repeat(MB)}\n`;
      const name = (parse(document).definitions[0] as OperationDefinitionNode).name!.value;
      kept.push(traceText(name));
    }
    const grewMb = (heapAfterGc() - before) / MB;
    expect(kept[39]).toBe('Operation39WithAName');
    // Forty documents of a megabyte each were made; only their names remain.
    expect(grewMb).toBeLessThan(8);
  });

  it('builds a response path cut short: each alias cut, the root end giving way when still too long', () => {
    expect(traceResponsePath(path('campaigns', 'nodes', 3, 'card'))).toBe('campaigns.nodes.3.card');
    expect(traceResponsePath(path('a'.repeat(MB), 'nodes', 0, 'card'))).toBe(`${'a'.repeat(47)}\u2026.nodes.0.card`);
    const deep = traceResponsePath(path(...Array.from({ length: 20 }, (_, i) => `${String.fromCharCode(65 + i)}${'x'.repeat(MB)}`)));
    expect(deep.length).toBeLessThanOrEqual(TRACE_TEXT_MAX);
    // The leaf end is kept: it says which field the span is for.
    expect(deep.startsWith('\u2026.')).toBe(true);
    expect(deep.endsWith(`.T${'x'.repeat(46)}\u2026`)).toBe(true);
    expect(traceResponsePath(undefined)).toBe('');
  });
});
