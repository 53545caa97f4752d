import { parseValue, print } from 'graphql';
import { describe, expect, it } from 'vitest';
import { preview, quote } from '../../src/text/received-value.js';
import { MESSAGE_LIMIT, boundEchoes } from '../../src/graphql/errors.js';

const X40 = 'x'.repeat(40);

describe('quote', () => {
  it('quotes a short value whole and a long one as 40 characters and "…"', () => {
    expect(quote('abc')).toBe('"abc"');
    expect(quote(X40)).toBe(`"${X40}"`);
    expect(quote(`${X40}y`)).toBe(`"${X40}…"`);
  });

  it('escapes what it quotes and never splits a surrogate pair', () => {
    expect(quote('a"b\\c\n')).toBe('"a\\"b\\\\c\\n"');
    // Characters are code points: 39 x's and an emoji are 40, kept whole, then the cut.
    const cut = quote(`${'x'.repeat(39)}😀😀`);
    expect(cut).toBe(`"${'x'.repeat(39)}😀…"`);
    expect(cut).not.toMatch(/[\ud800-\udbff](?![\udc00-\udfff])/);
  });
});

describe('preview', () => {
  it.each([
    [1, '1'],
    [null, 'null'],
    [true, 'true'],
    [[], '[]'],
    [{}, '{}'],
    [{ pins: ['A1'], n: 2 }, '{ pins: ["A1"], n: 2 }'],
    [{ 'not a name': 1 }, '{ "not a name": 1 }'],
  ])('writes %j as graphql-js would: %s', (value, expected) => {
    expect(preview(value)).toBe(expected);
  });

  it('cuts a long composite after 40 characters, closing a string it cuts into', () => {
    expect(preview([`${X40}x`])).toBe(`["${'x'.repeat(38)}…"`);
    expect(preview({ a: 1, b: 2, c: 3, d: 4, e: 5, f: 6, g: 7, h: 8 })).toBe('{ a: 1, b: 2, c: 3, d: 4, e: 5, f: 6, g:…');
    // An escape sequence is kept whole or left out: 9 × `a\"b` and `a` fill 39 of the 40.
    expect(preview(['a"b'.repeat(20)])).toBe(`["${'a\\"b'.repeat(9)}a…"`);
  });

  it('shows a prefix of a value with many keys or deep nesting', () => {
    const huge = Object.fromEntries(Array.from({ length: 100_000 }, (_, i) => [`k${i}`, 'v'.repeat(100)]));
    expect(preview(huge)).toBe(`{ k0: "${'v'.repeat(33)}…"`);
    let deep: unknown = 'x';
    for (let i = 0; i < 100_000; i++) deep = [deep];
    expect(preview(deep)).toBe(`${'['.repeat(40)}…`);
  });
});

describe('boundEchoes', () => {
  it('cuts long quoted spans, keeps short ones and quotes that are cut already', () => {
    expect(boundEchoes(`Cannot query field "${'f'.repeat(100)}" on type "Query".`, undefined)).toBe(`Cannot query field "${'f'.repeat(40)}…" on type "Query".`);
    const short = `Variable "$n" got invalid value "${X40}…"; Int cannot represent non-integer value: "${X40}…"`;
    expect(boundEchoes(short, undefined)).toBe(short);
    const escaped = `got ${quote('"'.repeat(100))}`;
    expect(boundEchoes(escaped, undefined)).toBe(escaped);
  });

  it('cuts the unexpected token of a syntax error, quotes inside it included', () => {
    expect(boundEchoes(`Syntax Error: Expected Name, found String "${'a"b '.repeat(50)}".`, undefined)).toBe(
      `Syntax Error: Expected Name, found String ${quote('a"b '.repeat(50))}.`,
    );
    expect(boundEchoes('Syntax Error: Expected "on", found Name "x".', undefined)).toBe('Syntax Error: Expected "on", found Name "x".');
  });

  it('cuts a literal the error points at, closing a string it cuts into', () => {
    const literal = parseValue(`["${'x'.repeat(100)}", 1]`);
    expect(boundEchoes(`Expected value of type "Int", found ${print(literal)}; see "first".`, [literal])).toBe(
      `Expected value of type "Int", found ["${'x'.repeat(38)}…"; see "first".`,
    );
    const text = parseValue(`"""${'a"b '.repeat(50)}"""`);
    expect(boundEchoes(`Int cannot represent non-integer value: ${print(text)}`, [text])).toBe(
      `Int cannot represent non-integer value: ${quote('a"b '.repeat(50))}`,
    );
  });

  it('cuts a value a scalar writes bare, without quotes, and keeps words, names and cuts already made', () => {
    expect(boundEchoes(`SafeInt cannot represent non-integer value: ${'9'.repeat(100_000)}`, undefined)).toBe(
      `SafeInt cannot represent non-integer value: ${'9'.repeat(40)}…`,
    );
    expect(boundEchoes(`Value is not a valid URL: ${'a/'.repeat(50)} (see "x")`, undefined)).toBe(`Value is not a valid URL: ${'a/'.repeat(20)}… (see "x")`);
    const plain = `Field "CreateCampaignInput.partnerCampaignId" of required type "SafeInt!" was not provided; cut already: ${'9'.repeat(40)}…`;
    expect(boundEchoes(plain, undefined)).toBe(plain);
  });

  it('cuts a bare value written with spaces where the message ends, whoever wrote it', () => {
    const out = boundEchoes(`Bad value: ${'a b '.repeat(250_000)}`, undefined);
    expect(out).toHaveLength(MESSAGE_LIMIT + 1);
    expect(out.endsWith('…')).toBe(true);
    // Never half of a character.
    expect(boundEchoes(`${'x'.repeat(MESSAGE_LIMIT - 1)} ${'😀'.repeat(10)}`, undefined)).not.toMatch(/[\ud800-\udbff](?![\udc00-\udfff])/);
  });

  it('cuts a string literal a scalar writes bare into its reason', () => {
    const text = parseValue(`"${'a b '.repeat(1000)}"`);
    expect(boundEchoes(`Expected value of type "SafeInt!", found ${print(text)}; SafeInt cannot represent non-integer value: ${'a b '.repeat(1000)}`, [text])).toBe(
      `Expected value of type "SafeInt!", found ${quote('a b '.repeat(1000))}; SafeInt cannot represent non-integer value: ${quote('a b '.repeat(1000))}`,
    );
  });
});
