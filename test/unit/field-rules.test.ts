import { describe, expect, it } from 'vitest';
import { contrastRatio, isPercent, merchantDomainProblem, pinProblem, relativeLuminance } from '../../src/campaign-api/field-rules.js';
import { isMoney } from '../../src/text/money.js';

describe('field rules', () => {
  it('computes WCAG luminance and contrast', () => {
    expect(relativeLuminance('#000')).toBe(0);
    expect(relativeLuminance('#FFFFFF')).toBeCloseTo(1, 5);
    expect(contrastRatio('#000000', '#fff')).toBeCloseTo(21, 5);
    expect(contrastRatio('#777777', '#888888')).toBeLessThan(1.5);
  });

  it('accepts money with at most two decimals', () => {
    expect(['0', '15', '10.00', '0.5'].every(isMoney)).toBe(true);
    expect(['-1', '1.234', '01', '1,5', '', ' 1'].some(isMoney)).toBe(false);
    expect(isPercent('100')).toBe(true);
    expect(isPercent('0')).toBe(false);
    expect(isPercent('100.01')).toBe(false);
  });

  it('wants a bare merchant domain', () => {
    expect(merchantDomainProblem('shop.example.ru')).toBeNull();
    expect(merchantDomainProblem('https://shop.example.ru')).toMatch(/scheme/);
    expect(merchantDomainProblem('www.shop.ru')).toMatch(/www/);
    expect(merchantDomainProblem('shop.ru/')).toMatch(/slash/);
    expect(merchantDomainProblem('localhost')).toMatch(/host name/);
  });

  it('checks pins against their display type', () => {
    expect(pinProblem('4006381333931', 'ean_13')).toBeNull();
    expect(pinProblem('400638133393', 'ean_13')).toMatch(/13 digits/);
    expect(pinProblem('a'.repeat(256), 'text')).toMatch(/255/);
    expect(pinProblem('PROMO-1', 'text')).toBeNull();
  });
});
