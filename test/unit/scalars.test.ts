import { GraphQLURL } from 'graphql-scalars';
import { describe, expect, it } from 'vitest';
import { memoisedSerialize, scalarResolvers } from '../../src/graphql/scalars.js';

describe('memoisedSerialize', () => {
  it('answers what the scalar answers, remembered or not', () => {
    const url = memoisedSerialize((v) => GraphQLURL.serialize(v));
    for (const value of ['https://shop.example.ru', 'https://shop.example.ru/logo.svg?x=1#y', 'HTTP://EXAMPLE.RU/a/../b']) {
      const first = url(value);
      expect(first).toBe(GraphQLURL.serialize(value));
      expect(url(value)).toBe(first);
    }
    expect(url('https://shop.example.ru')).toBe('https://shop.example.ru/');
  });

  it('keeps no failure: a bad value throws every time', () => {
    let calls = 0;
    const url = memoisedSerialize((v) => {
      calls++;
      return GraphQLURL.serialize(v);
    });
    expect(() => url('not a url')).toThrow();
    expect(() => url('not a url')).toThrow();
    expect(calls).toBe(2);
  });

  it('calls the scalar once per string until the memo is full, then starts over', () => {
    let calls = 0;
    const upper = memoisedSerialize((v) => {
      calls++;
      return String(v).toUpperCase();
    }, 2);
    upper('a');
    upper('a');
    upper('b');
    expect(calls).toBe(2);
    upper('c'); // full: cleared, then c kept
    upper('a');
    expect(calls).toBe(4);
  });

  it("the URL scalar's failure on a backend value is still the backend's", () => {
    expect(() => scalarResolvers.URL.serialize!('not a url')).toThrow(/URL/);
  });
});
