import { isMoney, isPercent, quote, type CampaignDetails } from '../campaign-api/index.js';
import { badArgument } from './errors.js';

// Intl objects are costly to make and a card list formats dozens of labels a request: reuse them.
// Both caches are bounded, as locales come from clients.
const MAX_CACHED = 200;
const canonicalLocales = new Map<string, string>();
const formatters = new Map<string, Intl.NumberFormat>();

function remember<V>(cache: Map<string, V>, key: string, make: () => V): V {
  let value = cache.get(key);
  if (value === undefined) {
    value = make();
    if (cache.size >= MAX_CACHED) cache.delete(cache.keys().next().value!);
    cache.set(key, value);
  }
  return value;
}

function numberFormat(tag: string, options: Intl.NumberFormatOptions): Intl.NumberFormat {
  return remember(formatters, `${tag}|${JSON.stringify(options)}`, () => new Intl.NumberFormat(tag, options));
}

/** The locale tag, canonicalised, or a BAD_USER_INPUT error naming the argument. */
export function checkedLocale(locale: string): string {
  const known = canonicalLocales.get(locale);
  if (known) return known;
  try {
    const [canonical] = Intl.getCanonicalLocales(locale);
    if (canonical) return remember(canonicalLocales, locale, () => canonical);
  } catch {
    // reported below
  }
  throw badArgument('locale', `must be a BCP 47 language tag such as "ru-RU" or "en-US", got ${quote(locale)}`);
}

/**
 * The discount as people read it, formatted by Intl for the locale: "15 %", "500 ₽", "$5".
 * A text bonus, or an amount that is not a number (a backend quirk), is shown as it is.
 */
export function discountLabel(details: Pick<CampaignDetails, 'discountType' | 'discountAmount' | 'discountCurrency'>, locale: string): string {
  const tag = checkedLocale(locale);
  const amount = details.discountAmount;
  if (details.discountType === 'percent' && isPercent(amount)) {
    return numberFormat(tag, { style: 'percent', maximumFractionDigits: 2 }).format(Number(amount) / 100);
  }
  if (details.discountType === 'fix' && isMoney(amount)) {
    const code = details.discountCurrency ?? 643;
    if (code !== 643 && code !== 840) return amount;
    const whole = Number.isInteger(Number(amount));
    return numberFormat(tag, {
      style: 'currency',
      currency: code === 840 ? 'USD' : 'RUB',
      // Whole amounts read best without kopecks ("500 ₽"); others keep both decimals ("9,90 ₽").
      minimumFractionDigits: whole ? 0 : 2,
      maximumFractionDigits: whole ? 0 : 2,
    }).format(Number(amount));
  }
  return amount;
}
