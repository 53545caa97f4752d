import { ENUM_VALUES, UNKNOWN_CURRENCY, UNKNOWN_VALUE } from '../schema/enum-values.js';

/**
 * Messages of the campaign API (its refusals, and the zod contract's rules the BFF checks before
 * calling) speak the REST API's words: `campaigns/add-pins`, `pinType one-off`,
 * `discountCurrency 840`. A GraphQL caller knows `addPins`, `ONE_OFF` and `USD`. The contract
 * writes an enum value after its field and an operation as its path, so both can be put into
 * GraphQL words here without guessing; quoted text (a value the caller sent) is left untouched.
 */

/** REST operation paths as a GraphQL caller meets them. */
const OPERATIONS: Record<string, string> = {
  'campaigns/create': 'createCampaign',
  'campaigns/update': 'updateCampaign',
  'campaigns/start': 'startCampaign',
  'campaigns/stop': 'stopCampaign',
  'campaigns/add-pins': 'addPins',
  'campaigns/redeem': 'reportLead',
  'campaigns/get': 'the campaign query',
  'campaigns/info': 'Campaign.stats',
  'campaigns/get-all-campaigns': 'the campaigns query',
  'campaigns/get-pins-by-status': 'Campaign.pins',
  'categories/get': 'the categories query',
};

/** REST request fields the GraphQL API names otherwise. */
const FIELDS: Record<string, string> = { ymCampaignId: 'id', pinList: 'pins' };

type EnumName = keyof typeof ENUM_VALUES;

/** REST value → GraphQL value of the named enums, without the read-only catch-alls. */
function valuesOf(...enums: EnumName[]): ReadonlyMap<string, string> {
  const map = new Map<string, string>();
  for (const name of enums) {
    for (const [graphql, rest] of Object.entries(ENUM_VALUES[name])) {
      if (rest !== UNKNOWN_VALUE && rest !== UNKNOWN_CURRENCY) map.set(String(rest), graphql);
    }
  }
  return map;
}

/** Fields whose value a message may name right after them (`pinType reusable`). */
const ENUM_FIELDS: Record<string, ReadonlyMap<string, string>> = {
  campaignType: valuesOf('CampaignType'),
  pinType: valuesOf('PinType'),
  pinDisplayType: valuesOf('PinDisplayType'),
  appearanceType: valuesOf('AppearanceType'),
  discountType: valuesOf('DiscountType'),
  feeType: valuesOf('FeeType'),
  cashbackType: valuesOf('CashbackType'),
  supportedPlatforms: valuesOf('Platform'),
  redeemStatus: valuesOf('RedeemStatus'),
  pinStatus: valuesOf('PinStatus'),
  campaignStatus: valuesOf('CampaignStatus'),
  status: valuesOf('CampaignStatus', 'PinStatus'),
  discountCurrency: valuesOf('CurrencyCode'),
  feeCurrency: valuesOf('CurrencyCode'),
  orderCurrency: valuesOf('CurrencyCode'),
};

/**
 * REST values that can be no English word (`codeOnline`, `one-off`, `new_unused`): put into
 * GraphQL words wherever they stand. Plain words (`text`, `fix`, `used`) only after their field.
 */
const DISTINCT: ReadonlyMap<string, string> = new Map(
  [...new Set(Object.values(ENUM_FIELDS).flatMap((m) => [...m]))].filter(([rest]) => /[A-Z_-]/.test(rest)),
);

const QUOTED = /("(?:[^"\\]|\\.)*")/;
const PATH = /\b(?:campaigns|categories)\/[a-z-]+/g;
const WORD = /([A-Za-z0-9_]+(?:-[A-Za-z0-9_]+)*)/;
/** What may stand between a field and its values: `pinType one-off`, `codeOnline, codeOffline or promo`. */
const LIST_SEPARATOR = /^,? $/;

function translateWords(text: string, names: Readonly<Record<string, string>>): string {
  const parts = text.replace(PATH, (path) => OPERATIONS[path] ?? path).split(WORD);
  let values: ReadonlyMap<string, string> | null = null;
  // split() with a capture group alternates: separator, word, separator, word, ..., separator.
  for (let i = 1; i < parts.length; i += 2) {
    const word = parts[i]!;
    const before = parts[i - 1]!;
    if (values && !LIST_SEPARATOR.test(before)) values = null;
    if (word in ENUM_FIELDS) {
      values = ENUM_FIELDS[word]!;
      if (Object.hasOwn(names, word)) parts[i] = names[word]!;
      continue;
    }
    if (values?.has(word)) {
      parts[i] = values.get(word)!;
      continue;
    }
    if (values && (word === 'or' || word === 'and')) continue;
    values = null;
    parts[i] = DISTINCT.get(word) ?? (Object.hasOwn(names, word) ? names[word] : undefined) ?? FIELDS[word] ?? word;
  }
  return parts.join('');
}

/**
 * A message in the GraphQL API's words: its operation names, enum values and field names. `names`
 * renames the REST fields an input calls otherwise (`campaignStart` → `startsAt`).
 */
export function inGraphQLTerms(message: string, names: Readonly<Record<string, string>> = {}): string {
  return message
    .split(QUOTED)
    .map((part, i) => (i % 2 === 1 ? part : translateWords(part, names)))
    .join('');
}
