import { BoundedMemory } from '../bounded/index.js';
import { isPercent, type CampaignDetails } from '../campaign-api/index.js';
import { isMoney } from '../text/money.js';
import { quote } from '../text/received-value.js';
import { badArgument } from '../graphql/errors.js';

// Intl objects are costly to make and a card list formats dozens of labels a request: reuse them.
// Both caches are bounded, as locales come from clients.
const MAX_CACHED = 200;
const canonicalLocales = new BoundedMemory<string, string>({ maxEntries: MAX_CACHED });
/** Formatters by locale tag, then by the form of the number; a key string per label was garbage. */
const formatters = new BoundedMemory<string, Partial<Record<NumberForm, Intl.NumberFormat>>>({ maxEntries: MAX_CACHED });

type NumberForm = keyof typeof NUMBER_FORMS;
const NUMBER_FORMS = {
  percent: { style: 'percent', maximumFractionDigits: 2 },
  // Whole amounts read best without kopecks ("500 ₽"); others keep both decimals ("9,90 ₽").
  RUB: { style: 'currency', currency: 'RUB', minimumFractionDigits: 0, maximumFractionDigits: 0 },
  'RUB.00': { style: 'currency', currency: 'RUB', minimumFractionDigits: 2, maximumFractionDigits: 2 },
  USD: { style: 'currency', currency: 'USD', minimumFractionDigits: 0, maximumFractionDigits: 0 },
  'USD.00': { style: 'currency', currency: 'USD', minimumFractionDigits: 2, maximumFractionDigits: 2 },
} as const satisfies Record<string, Intl.NumberFormatOptions>;

function numberFormat(tag: string, form: NumberForm): Intl.NumberFormat {
  const forms = formatters.remember(tag, (): Partial<Record<NumberForm, Intl.NumberFormat>> => ({}));
  return (forms[form] ??= new Intl.NumberFormat(tag, NUMBER_FORMS[form]));
}

/**
 * The locale tag, canonicalised, or a BAD_USER_INPUT error naming the argument. A well-formed tag
 * is not enough: "not-a-locale" is well-formed BCP 47 (language "not", extension "a-locale"), and
 * Intl silently formats an unsupported language with its default locale. So the tag's language
 * must be one Intl can format numbers for.
 */
export function checkedLocale(locale: string): string {
  const known = canonicalLocales.get(locale);
  if (known) return known;
  try {
    const [canonical] = Intl.getCanonicalLocales(locale);
    if (canonical && Intl.NumberFormat.supportedLocalesOf(canonical, { localeMatcher: 'lookup' }).length > 0) {
      return canonicalLocales.remember(locale, () => canonical);
    }
  } catch {
    // reported below
  }
  throw badArgument('locale', `must be a BCP 47 language tag Intl supports, such as "ru-RU" or "en-US", got ${quote(locale)}`);
}

/**
 * The discount as people read it, formatted by Intl for the locale: "15 %", "500 ₽", "$5".
 * A text bonus, or an amount that is not a number (a backend quirk), is shown as it is.
 */
export function discountLabel(details: Pick<CampaignDetails, 'discountType' | 'discountAmount' | 'discountCurrency'>, locale: string): string {
  const tag = checkedLocale(locale);
  const amount = details.discountAmount;
  if (details.discountType === 'percent' && isPercent(amount)) {
    return numberFormat(tag, 'percent').format(Number(amount) / 100);
  }
  if (details.discountType === 'fix' && isMoney(amount)) {
    const code = details.discountCurrency ?? 643;
    if (code !== 643 && code !== 840) return amount;
    const whole = Number.isInteger(Number(amount));
    const form = code === 840 ? (whole ? 'USD' : 'USD.00') : whole ? 'RUB' : 'RUB.00';
    return numberFormat(tag, form).format(Number(amount));
  }
  return amount;
}
