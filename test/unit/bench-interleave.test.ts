import { describe, expect, it } from 'vitest';
import { roundOrder } from '../../bench/lib/rows.js';

describe('comparisons made interleaved', () => {
  it('runs the floor, warm categories and mercurius rounds each in the other order from the round before', () => {
    expect(roundOrder(2, ['floor', 'categories', 'mercurius'])).toEqual(['mercurius', 'categories', 'floor']);
    expect(roundOrder(3, ['floor', 'categories', 'mercurius'])).toEqual(['floor', 'categories', 'mercurius']);
  });
});
