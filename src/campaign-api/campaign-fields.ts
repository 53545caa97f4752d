import { z } from 'zod';
import { quote } from '../text/received-value.js';
import {
  APPEARANCE_TYPES,
  CAMPAIGN_TYPES,
  CASHBACK_TYPES,
  CODE_CAMPAIGN_TYPES,
  DISCOUNT_TYPES,
  FEE_TYPES,
  PIN_DISPLAY_TYPES,
  PIN_TYPES,
  PLATFORMS,
  currencyCode,
} from './enums.js';
import {
  MAX_BACKGROUND_LUMINANCE,
  MIN_FONT_CONTRAST,
  contrastRatio,
  hasCyrillic,
  isHexColor,
  isHttpUrl,
  isPercent,
  merchantDomainProblem,
  pinIssue,
  relativeLuminance,
} from './field-rules.js';
import { isMoney } from '../text/money.js';
import { textIssue, type TextOptions } from '../text/text-rule.js';
import { kind, type IssueKind } from './issue-messages.js';

/** Field bounds of the REST API's campaign fields (their varchar sizes). */
export const FIELD_LIMITS = {
  merchantName: 300,
  merchantLogoSvg: 300,
  merchantLogoPng: 300,
  backgroundColor: 30,
  fontColor: 30,
  description: 90,
  conditions: 512,
  discountType: 30,
  discountAmount: 30,
  money: 30,
  supportedPlatforms: 300,
  url: 2048,
  merchantDomain: 253,
  couponCode: 255,
  transactionId: 36,
} as const;

/**
 * A string field under the text rule (field-rules.ts): bad text is refused with its reason, and
 * the field's other checks are skipped, so one value gets one message.
 */
export const text = (max: number, options: TextOptions = {}) =>
  z
    .string()
    .superRefine((v, ctx) => {
      const issue = textIssue(v, options);
      if (issue) ctx.addIssue({ code: 'custom', message: issue.message, params: kind(issue.kind), continue: false });
    })
    .max(max);

/** A check of a value that passed the text rule; its message states the contract and quotes what came. */
const must = (holds: (value: string) => boolean, contract: string) =>
  [holds, { error: (issue: { input?: unknown }) => `${contract}, got ${quote(String(issue.input))}`, params: kind('format') }] as const;

export const dateTime = text(64)
  .datetime({ offset: true })
  .meta({ description: 'ISO 8601 timestamp with a time-zone offset or Z.' });
const url = (max: number) => text(max).refine(...must(isHttpUrl, 'must be an absolute http(s) URL'));
export const money = text(FIELD_LIMITS.money).refine(
  ...must(isMoney, 'must be a non-negative decimal with at most two decimals, such as "15" or "10.00"'),
);
const hexColor = text(FIELD_LIMITS.backgroundColor).refine(...must(isHexColor, 'must be a colour written #RGB or #RRGGBB'));
const russianText = (max: number, options: TextOptions = {}) =>
  text(max, options).refine(...must(hasCyrillic, 'must be written in Russian (contain Cyrillic letters)'));
const platforms = text(FIELD_LIMITS.supportedPlatforms).refine(
  ...must((v) => v.split(',').every((p) => (PLATFORMS as readonly string[]).includes(p.trim())), `must list ${PLATFORMS.join(', ')} or both, separated by a comma`),
);

export const partnerCampaignId = z.number().int().positive().max(Number.MAX_SAFE_INTEGER);
export const ymCampaignId = z.number().int().positive().max(Number.MAX_SAFE_INTEGER);

/** Every writable campaign field with its own bounds; whether it is required is decided below. */
export const campaignFieldShape = {
  partnerCampaignId,
  categoryId: z.number().int().positive(),
  campaignType: z.enum(CAMPAIGN_TYPES),
  campaignStart: dateTime,
  campaignEnd: dateTime,
  offerDuration: z.number().int().positive().max(100_000).meta({ description: 'Hours a saved offer stays usable.' }),
  offerEnd: dateTime.meta({ description: 'Another offer period; the reference names it without a format.' }),
  pinType: z.enum(PIN_TYPES),
  pinDisplayType: z.enum(PIN_DISPLAY_TYPES),
  couponCode: text(FIELD_LIMITS.couponCode),
  appearanceType: z.enum(APPEARANCE_TYPES),
  acceptUrl: url(FIELD_LIMITS.url),
  merchantDomain: text(FIELD_LIMITS.merchantDomain).superRefine((v, ctx) => {
    const problem = merchantDomainProblem(v);
    if (problem) ctx.addIssue({ code: 'custom', message: `${problem}, got ${quote(v)}`, params: kind('format') });
  }),
  merchantLogoSvg: url(FIELD_LIMITS.merchantLogoSvg),
  merchantLogoPng: url(FIELD_LIMITS.merchantLogoPng),
  merchantName: text(FIELD_LIMITS.merchantName),
  backgroundColor: hexColor,
  backgroundImage: url(FIELD_LIMITS.url),
  fontColor: hexColor,
  description: russianText(FIELD_LIMITS.description),
  // Conditions are paragraphs on the offer's page: the one field that may hold line breaks.
  conditions: russianText(FIELD_LIMITS.conditions, { multiline: true }),
  discountType: z.enum(DISCOUNT_TYPES),
  discountAmount: text(FIELD_LIMITS.discountAmount),
  discountCurrency: currencyCode,
  campaignFee: money,
  campaignFeeMin: money,
  campaignFeeMax: money,
  feeType: z.enum(FEE_TYPES),
  feeCurrency: currencyCode,
  supportedPlatforms: platforms,
  cashbackType: z.enum(CASHBACK_TYPES),
  cashbackConfirmTime: z.number().int().nonnegative().max(3650).meta({ description: 'Days to confirm a cashback lead.' }),
};

export type CampaignFieldName = keyof typeof campaignFieldShape;

/** Fields every create request carries. */
export const ALWAYS_REQUIRED_ON_CREATE = [
  'partnerCampaignId',
  'categoryId',
  'campaignType',
  'merchantDomain',
  'merchantLogoSvg',
  'merchantLogoPng',
  'merchantName',
  'backgroundColor',
  'fontColor',
  'description',
  'conditions',
  'discountType',
  'discountAmount',
  'feeType',
] as const satisfies readonly CampaignFieldName[];

export interface FieldIssue {
  field: string;
  message: string;
  /** What kind of problem it is, where the rule says (the BFF's user error codes). */
  kind?: IssueKind;
}

type Loose = Partial<Record<CampaignFieldName, unknown>>;

const str = (v: unknown): v is string => typeof v === 'string';

/** A string that passes the text rule: the rules below judge only such values, so each bad value gets one message. */
const goodText = (v: unknown): v is string => str(v) && textIssue(v) === null;

/**
 * The rules that tie fields together (the field rules of docs/adr/rest-reference.md). Written against possibly
 * invalid input so that every violated field is reported at once. With `complete`, the record is
 * a whole campaign (create, or an update merged onto the stored one) and conditional
 * requirements apply; without it, only rules whose fields are all present are checked.
 *
 * Messages name an enum value after its field (`pinType reusable`, `discountCurrency 840`) and an
 * operation by its path (`campaigns/add-pins`): the REST API's own words, in a form the GraphQL
 * API puts into its words (src/campaigns/vocabulary.ts).
 */
export function crossFieldIssues(data: Loose, complete: boolean): FieldIssue[] {
  const issues: FieldIssue[] = [];
  const add = (field: string, message: string, kind: IssueKind) => issues.push({ field, message, kind });
  const has = (f: CampaignFieldName) => data[f] !== undefined && data[f] !== null;
  const type = data.campaignType;
  const isCode = str(type) && CODE_CAMPAIGN_TYPES.includes(type);

  if (complete) {
    for (const f of ALWAYS_REQUIRED_ON_CREATE) if (!has(f)) add(f, 'is required', 'required');
    if (isCode) {
      if (!has('pinType')) add('pinType', `is required for campaignType ${String(type)}`, 'required');
      if (!has('pinDisplayType')) add('pinDisplayType', `is required for campaignType ${String(type)}`, 'required');
      if (data.pinType === 'reusable' && !has('couponCode')) add('couponCode', 'is required for pinType reusable', 'required');
    }
    if ((type === 'promo' || type === 'banner' || type === 'codeOnline') && !has('acceptUrl')) {
      add('acceptUrl', `is required for campaignType ${type}`, 'required');
    }
    if (type === 'banner') {
      if (!has('appearanceType')) add('appearanceType', 'is required for campaignType banner', 'required');
      if (data.appearanceType === 'ImageBanner' && !has('backgroundImage')) {
        add('backgroundImage', 'is required for campaignType banner with appearanceType ImageBanner', 'required');
      }
    }
    const feeForms = Number(has('campaignFee')) + Number(has('campaignFeeMin') || has('campaignFeeMax'));
    if (feeForms === 0) add('campaignFee', 'either campaignFee or both campaignFeeMin and campaignFeeMax are required', 'required');
  }

  if (has('campaignFee') && (has('campaignFeeMin') || has('campaignFeeMax'))) {
    add('campaignFee', 'give either campaignFee or the pair campaignFeeMin and campaignFeeMax, not both', 'notAllowed');
  } else if (has('campaignFeeMin') !== has('campaignFeeMax') && (complete || !has('campaignFee'))) {
    add(has('campaignFeeMin') ? 'campaignFeeMax' : 'campaignFeeMin', 'campaignFeeMin and campaignFeeMax go together', 'required');
  }
  if (goodText(data.campaignFeeMin) && goodText(data.campaignFeeMax) && isMoney(data.campaignFeeMin) && isMoney(data.campaignFeeMax)) {
    if (Number(data.campaignFeeMin) > Number(data.campaignFeeMax)) {
      add('campaignFeeMin', `must not exceed campaignFeeMax (${quote(data.campaignFeeMin)} > ${quote(data.campaignFeeMax)})`, 'outOfRange');
    }
  }

  const bg = data.backgroundColor;
  if (goodText(bg) && isHexColor(bg)) {
    const luminance = relativeLuminance(bg);
    if (luminance > MAX_BACKGROUND_LUMINANCE) {
      add('backgroundColor', `is too light: relative luminance ${luminance.toFixed(2)}, at most ${MAX_BACKGROUND_LUMINANCE} allowed`, 'outOfRange');
    } else if (goodText(data.fontColor) && isHexColor(data.fontColor)) {
      const ratio = contrastRatio(bg, data.fontColor);
      if (ratio < MIN_FONT_CONTRAST) {
        add('fontColor', `contrast with backgroundColor ${bg} is ${ratio.toFixed(2)}:1, at least ${MIN_FONT_CONTRAST}:1 required`, 'outOfRange');
      }
    }
  }

  const amount = data.discountAmount;
  if (goodText(amount)) {
    if (data.discountType === 'text' && !hasCyrillic(amount)) add('discountAmount', `must be written in Russian for discountType text, got ${quote(amount)}`, 'format');
    if (data.discountType === 'fix' && !isMoney(amount)) add('discountAmount', `must be a decimal amount for discountType fix, got ${quote(amount)}`, 'format');
    if (data.discountType === 'percent' && !isPercent(amount)) add('discountAmount', `must be a percentage above 0 and at most 100 for discountType percent, got ${quote(amount)}`, isMoney(amount) ? 'outOfRange' : 'format');
  }
  if (data.discountCurrency === 840 && has('discountType') && data.discountType !== 'fix') {
    add('discountCurrency', `only discountType fix allows discountCurrency 840, got discountType ${String(data.discountType)}`, 'notAllowed');
  }

  if (goodText(data.couponCode) && (data.pinDisplayType === 'text' || data.pinDisplayType === 'ean_13')) {
    const problem = pinIssue(data.couponCode, data.pinDisplayType);
    if (problem) add('couponCode', problem.message, problem.kind);
  }
  if (has('couponCode') && data.pinType === 'one-off') {
    add('couponCode', 'is only for pinType reusable; for pinType one-off, upload the pins with campaigns/add-pins', 'notAllowed');
  }

  if (goodText(data.campaignStart) && goodText(data.campaignEnd)) {
    const start = Date.parse(data.campaignStart);
    const end = Date.parse(data.campaignEnd);
    if (!Number.isNaN(start) && !Number.isNaN(end) && end <= start) {
      add('campaignEnd', `must be after campaignStart: ${quote(data.campaignEnd)} is not after ${quote(data.campaignStart)}`, 'outOfRange');
    }
  }
  return issues;
}

/** Runs the cross-field rules even when single fields already failed, so all issues come at once. */
function withCrossRules<T extends z.ZodType>(schema: T, complete: boolean) {
  return schema.superRefine(
    (value, ctx) => {
      if (typeof value !== 'object' || value === null) return;
      for (const issue of crossFieldIssues(value as Loose, complete)) {
        ctx.addIssue({ code: 'custom', path: [issue.field], message: issue.message, ...(issue.kind ? { params: kind(issue.kind) } : {}) });
      }
    },
    // zod skips refinements after a failed field unless told to run them anyway.
    { when: () => true } as never,
  );
}

const optionalShape = Object.fromEntries(
  Object.entries(campaignFieldShape).map(([k, v]) => [k, v.optional()]),
) as { [K in CampaignFieldName]: z.ZodOptional<(typeof campaignFieldShape)[K]> };

/** A whole campaign's writable data: what create takes, and what an update must leave behind. */
export const campaignData = withCrossRules(z.object(optionalShape), true);
/** Required-ness is checked by the rules, so every field but the id reads as optional here. */
export type CampaignData = z.infer<typeof campaignData> & { partnerCampaignId: number };

/** Fields every campaign has, so an update cannot clear them. */
export const NOT_CLEARABLE: readonly CampaignFieldName[] = ALWAYS_REQUIRED_ON_CREATE.filter((f) => f !== 'partnerCampaignId');

/**
 * Stored fields that a sent field replaces as a whole form, so an update can switch forms: a fee
 * replaces the min/max pair and the other way round, one-off pins drop the coupon code, and a kind
 * without codes drops the pin settings. A field sent as null replaces nothing.
 */
export function fieldsReplacedBy(sent: Readonly<Record<string, unknown>>): CampaignFieldName[] {
  const given = (f: CampaignFieldName) => sent[f] !== undefined && sent[f] !== null;
  const replaced: CampaignFieldName[] = [];
  if (given('campaignFee')) replaced.push('campaignFeeMin', 'campaignFeeMax');
  if (given('campaignFeeMin') || given('campaignFeeMax')) replaced.push('campaignFee');
  if (sent.pinType === 'one-off') replaced.push('couponCode');
  if (given('campaignType') && !CODE_CAMPAIGN_TYPES.includes(String(sent.campaignType))) replaced.push('pinType', 'pinDisplayType', 'couponCode');
  return replaced;
}

const clearableShape = Object.fromEntries(
  Object.entries(campaignFieldShape).map(([k, v]) => [k, v.nullable().optional()]),
) as { [K in CampaignFieldName]: z.ZodOptional<z.ZodNullable<(typeof campaignFieldShape)[K]>> };

/**
 * The rules of an update's fields: the cross-field rules among the fields sent, and null (which
 * clears an optional field; the reference is silent on clearing) refused for a field every
 * campaign has.
 */
function withUpdateRules<T extends z.ZodType>(schema: T) {
  return withCrossRules(schema, false).superRefine(
    (value, ctx) => {
      if (typeof value !== 'object' || value === null) return;
      for (const field of NOT_CLEARABLE) {
        if ((value as Loose)[field] === null) {
          ctx.addIssue({ code: 'custom', path: [field], message: 'is required and cannot be cleared: leave it out to keep the current value', params: kind('required') });
        }
      }
    },
    { when: () => true } as never,
  );
}

const changesObject = z.object(clearableShape);
/** The fields of an update without its key, each a value or null; what the BFF checks before it reads the campaign. */
export const campaignChanges = withUpdateRules(changesObject);
/** An update: partnerCampaignId plus only the fields to change, each a value or null (cleared). */
export const campaignUpdate = withUpdateRules(changesObject.extend({ partnerCampaignId: campaignFieldShape.partnerCampaignId }));

/** A request path as written in JSON terms: `bonusDescription.category`, `pinList[3]`. */
export function formatFieldPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const part of path) {
    if (typeof part === 'number') out += `[${part}]`;
    else out += out ? `.${String(part)}` : String(part);
  }
  return out || '(body)';
}

/** Formats zod issues as field issues, keyed by the path in the request (`pinList[3]`). */
export function toFieldIssues(error: z.ZodError): FieldIssue[] {
  return error.issues.map((i) => ({
    field: formatFieldPath(i.path),
    message: i.message,
  }));
}
