import { GraphQLError } from 'graphql';
import { describe, expect, it } from 'vitest';
import { discountLabel } from '../../src/campaigns/discount-label.js';

/** The exact strings Intl produces on Node 20 (full ICU): note the no-break spaces (U+00A0). */
const NBSP = '\u00a0';

describe('discountLabel', () => {
  const label = (discountType: 'percent' | 'fix' | 'text', discountAmount: string, discountCurrency?: number, locale = 'ru-RU') =>
    discountLabel({ discountType, discountAmount, discountCurrency }, locale);

  it('formats percentages', () => {
    expect(label('percent', '15')).toBe(`15${NBSP}%`);
    expect(label('percent', '12.5')).toBe(`12,5${NBSP}%`);
    expect(label('percent', '100')).toBe(`100${NBSP}%`);
    expect(label('percent', '15', undefined, 'en-US')).toBe('15%');
  });

  it('formats fixed amounts in roubles (the default) and dollars, without kopecks when whole', () => {
    expect(label('fix', '500')).toBe(`500${NBSP}₽`);
    expect(label('fix', '500', 643)).toBe(`500${NBSP}₽`);
    expect(label('fix', '9.9')).toBe(`9,90${NBSP}₽`);
    expect(label('fix', '1500')).toBe(`1${NBSP}500${NBSP}₽`);
    expect(label('fix', '5', 840, 'en-US')).toBe('$5');
    expect(label('fix', '5.5', 840, 'en-US')).toBe('$5.50');
    expect(label('fix', '5', 840)).toBe(`5${NBSP}$`);
  });

  it('shows text bonuses, and amounts it cannot format, as they are', () => {
    expect(label('text', 'Подарок к заказу')).toBe('Подарок к заказу');
    expect(label('percent', 'много')).toBe('много');
    expect(label('fix', '5', 978)).toBe('5');
    expect(discountLabel({ discountType: { unknown: 'points' }, discountAmount: '300' }, 'ru-RU')).toBe('300');
  });

  it('refuses a locale that is not a BCP 47 tag, naming the argument', () => {
    let error: unknown;
    try {
      label('percent', '15', undefined, 'ru_RU!');
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(GraphQLError);
    expect((error as GraphQLError).extensions).toEqual({ code: 'BAD_USER_INPUT', argument: 'locale' });
    expect((error as GraphQLError).message).toBe('Argument "locale" must be a BCP 47 language tag Intl supports, such as "ru-RU" or "en-US", got "ru_RU!"');
  });

  it('refuses a well-formed tag Intl cannot format for, instead of formatting with a default', () => {
    // "not-a-locale" is well-formed BCP 47 (language "not" plus an extension); Intl would fall back.
    expect(() => label('percent', '15', undefined, 'not-a-locale')).toThrow(
      'Argument "locale" must be a BCP 47 language tag Intl supports, such as "ru-RU" or "en-US", got "not-a-locale"',
    );
    expect(() => label('percent', '15', undefined, `x${'y'.repeat(60)}`)).toThrow(`got "x${'y'.repeat(39)}…"`);
    expect(label('percent', '15', undefined, 'de-CH')).toBe('15%');
  });
});
