import type { CampaignFieldName } from '../../campaign-api/index.js';

/**
 * Where each writable field of the campaign API is in the campaign inputs, which carry the names
 * and the grouping of `Campaign`'s fields (a form filled from a query is sent back as it is):
 * `merchantLogoPng` is `merchant.logoPngUrl`, `campaignStart` is `startsAt`. The map to REST
 * names lives here only; messages and error paths are put into the input's names through it.
 */
export const INPUT_PATHS = {
  partnerCampaignId: ['partnerCampaignId'],
  categoryId: ['categoryId'],
  campaignType: ['type'],
  description: ['description'],
  conditions: ['conditions'],
  campaignStart: ['startsAt'],
  campaignEnd: ['endsAt'],
  offerDuration: ['offerDurationHours'],
  offerEnd: ['offerEndsAt'],
  acceptUrl: ['acceptUrl'],
  supportedPlatforms: ['supportedPlatforms'],
  merchantName: ['merchant', 'name'],
  merchantDomain: ['merchant', 'domain'],
  merchantLogoSvg: ['merchant', 'logoSvgUrl'],
  merchantLogoPng: ['merchant', 'logoPngUrl'],
  backgroundColor: ['appearance', 'backgroundColor'],
  fontColor: ['appearance', 'fontColor'],
  backgroundImage: ['appearance', 'backgroundImageUrl'],
  appearanceType: ['appearance', 'appearanceType'],
  discountType: ['discount', 'type'],
  discountAmount: ['discount', 'amount'],
  discountCurrency: ['discount', 'currency'],
  feeType: ['fee', 'type'],
  campaignFee: ['fee', 'amount'],
  campaignFeeMin: ['fee', 'min'],
  campaignFeeMax: ['fee', 'max'],
  feeCurrency: ['fee', 'currency'],
  pinType: ['pinSettings', 'pinType'],
  pinDisplayType: ['pinSettings', 'displayType'],
  couponCode: ['pinSettings', 'couponCode'],
  cashbackType: ['cashback', 'type'],
  cashbackConfirmTime: ['cashback', 'confirmDays'],
} as const satisfies Record<CampaignFieldName, readonly string[]>;

const FIELDS = Object.keys(INPUT_PATHS) as CampaignFieldName[];

/** Groups a campaign may go without: `null` in an update clears every field of the group. */
const CLEARABLE_GROUPS: ReadonlySet<string> = new Set(['pinSettings', 'cashback']);

/** REST field → its name in the input, dotted (`merchant.logoPngUrl`), for messages. */
export const INPUT_NAMES: Readonly<Record<string, string>> = Object.fromEntries(FIELDS.map((f) => [f, INPUT_PATHS[f].join('.')]));

/**
 * A campaign's fields as `Campaign` names them, for messages of the mutations that act on a
 * campaign without taking its fields (start, stop, addPins, reportLead). The fee fields are left
 * out: reportLead's own input calls the lead's fee `campaignFee`.
 */
export const CAMPAIGN_NAMES: Readonly<Record<string, string>> = Object.fromEntries(
  Object.entries(INPUT_NAMES).filter(([field]) => field !== 'campaignFee' && field !== 'feeCurrency'),
);

/** A path of the REST request (`["merchantLogoPng"]`) as a path of the input (`["merchant", "logoPngUrl"]`). */
export function inputPath(restPath: readonly string[]): string[] {
  const [field, ...rest] = restPath;
  const at = field !== undefined && Object.hasOwn(INPUT_PATHS, field) ? INPUT_PATHS[field as CampaignFieldName] : null;
  return at ? [...at, ...rest] : [...restPath];
}

export interface FlatInput {
  /** REST field → value as given (`null` where the input cleared it). */
  fields: Record<string, unknown>;
  /** Groups given as `null` that no campaign can go without: the input path of each. */
  unclearable: string[][];
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The input in the campaign API's field names, one level deep. A field left out stays out (at
 * every level); a group given as `null` is each of its fields given as `null`, which the update's
 * rules then judge (`pinSettings: null` clears the pin settings).
 */
export function flattenInput(input: Readonly<Record<string, unknown>>): FlatInput {
  const fields: Record<string, unknown> = {};
  const unclearable: string[][] = [];
  for (const field of FIELDS) {
    const [first, second] = INPUT_PATHS[field] as readonly [string, string?];
    if (!Object.hasOwn(input, first) || input[first] === undefined) continue;
    const value = input[first];
    if (second === undefined) {
      fields[field] = value;
    } else if (value === null) {
      if (CLEARABLE_GROUPS.has(first)) fields[field] = null;
      else if (!unclearable.some((path) => path[0] === first)) unclearable.push([first]);
    } else if (isObject(value) && Object.hasOwn(value, second) && value[second] !== undefined) {
      fields[field] = value[second];
    }
  }
  return { fields, unclearable };
}
