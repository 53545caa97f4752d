import { z } from 'zod';
import {
  ANSWERED_CAMPAIGN_TYPES,
  BUSINESS_ERROR_CODES,
  CAMPAIGN_STATUSES,
  DISCOUNT_TYPES,
  FEE_TYPES,
  PIN_DISPLAY_TYPES,
  PIN_STATUSES,
  PIN_TYPES,
  REDEEM_STATUSES,
  APPEARANCE_TYPES,
  CASHBACK_TYPES,
  currencyCode,
  lenientEnum,
} from './enums.js';
import { FIELD_LIMITS, campaignData, campaignUpdate, dateTime, money, text, ymCampaignId } from './campaign-fields.js';

/**
 * The REST contract of all 11 operations: one zod schema per request and per response payload.
 * The emulator validates requests with it, the client validates responses with it, and the
 * OpenAPI document is generated from it.
 */

const campaignStatus = lenientEnum(CAMPAIGN_STATUSES);
const count = z.number().int().nonnegative();
const optionalDateTime = z.string().optional();

const idRequest = z.object({ ymCampaignId });
const statusResult = z.object({ ymCampaignId: z.number().int(), campaignStatus });

/** What campaigns/get answers. Fields after the first block are optional extras. */
export const campaignDetails = z.object({
  ymCampaignId: z.number().int(),
  campaignStatus,
  campaignStart: optionalDateTime,
  campaignEnd: optionalDateTime,
  campaignType: lenientEnum(ANSWERED_CAMPAIGN_TYPES),
  pinType: lenientEnum(PIN_TYPES).optional(),
  pinEnd: optionalDateTime,
  merchantDomain: z.string(),
  merchantLogoSvg: z.string(),
  merchantLogoPng: z.string(),
  merchantName: z.string(),
  backgroundColor: z.string(),
  fontColor: z.string(),
  description: z.string(),
  conditions: z.string(),
  discountType: lenientEnum(DISCOUNT_TYPES),
  discountAmount: z.string(),
  campaignFee: z.string().optional(),
  categoryId: z.number().int().optional(),
  discountCurrency: z.number().int().optional(),
  // Not listed by the reference's get table; a backend may add them, the emulator does.
  partnerCampaignId: z.number().int().optional(),
  offerEnd: optionalDateTime,
  pinDisplayType: lenientEnum(PIN_DISPLAY_TYPES).optional(),
  acceptUrl: z.string().optional(),
  appearanceType: lenientEnum(APPEARANCE_TYPES).optional(),
  backgroundImage: z.string().optional(),
  couponCode: z.string().optional(),
  campaignFeeMin: z.string().optional(),
  campaignFeeMax: z.string().optional(),
  feeType: lenientEnum(FEE_TYPES).optional(),
  feeCurrency: z.number().int().optional(),
  offerDuration: z.number().int().optional(),
  supportedPlatforms: z.string().optional(),
  cashbackType: lenientEnum(CASHBACK_TYPES).optional(),
  cashbackConfirmTime: z.number().int().optional(),
});
export type CampaignDetails = z.infer<typeof campaignDetails>;

export const campaignInfo = z.object({
  ymCampaignId: z.number().int(),
  campaignStatus,
  campaignAccepts: count,
  campaignRedeems: count,
  campaignShows: count,
  campaignPinsStats: z.object({ unused: count, total: count }),
  campaignRedeemStats: z.object({ usedCount: count, approvedCount: count, declinedCount: count }),
});
export type CampaignInfo = z.infer<typeof campaignInfo>;

export const redeemRequest = z.object({
  ymCampaignId,
  pinContent: text(255).optional(),
  clickId: text(255).optional(),
  transactionId: text(FIELD_LIMITS.transactionId),
  redeemStatus: z.enum(REDEEM_STATUSES).optional(),
  sceneRedeem: text(255).optional(),
  redeemTime: dateTime.optional(),
  campaignFee: money,
  feeCurrency: currencyCode.optional(),
  orderAmount: money.optional(),
  orderCurrency: currencyCode.optional(),
  cashbackAmount: money.optional(),
  viewId: text(255).optional(),
  bonusDescription: z.object({ category: text(255).optional() }).optional(),
});

export const pinCounters = z.object({
  unusedPinCount: count,
  acceptedPinCount: count,
  redeemedPinCount: count,
  totalPinCount: count,
});

/** Largest `limit` of get-all-campaigns (docs/adr/rest-reference.md). */
export const MAX_PAGE_LIMIT = 100;

/** How a response carries its payload: inside `result`, or at the top level (get-all-campaigns). */
type Wrapping = 'result' | 'top-level';

interface OperationDef<Req extends z.ZodType, Res extends z.ZodType> {
  /** Path below `{base_url}/v1/`. */
  path: string;
  summary: string;
  request: Req;
  response: Res;
  wrapping: Wrapping;
  /** Safe to repeat: reads, and redeem (idempotent on transactionId). */
  idempotent: boolean;
  /** Error codes the REST API answers it with (docs/adr/rest-reference.md). */
  errors: readonly (typeof BUSINESS_ERROR_CODES)[number][];
}

const op = <Req extends z.ZodType, Res extends z.ZodType>(def: OperationDef<Req, Res>) => def;

export const operations = {
  create: op({
    path: 'campaigns/create',
    summary: 'Create a campaign (or replace one with the same partnerCampaignId) and send it to moderation.',
    request: campaignData,
    response: statusResult,
    wrapping: 'result',
    idempotent: false,
    errors: ['incorrectData', 'repeatCampaignData'],
  }),
  update: op({
    path: 'campaigns/update',
    summary: 'Change fields of a campaign, keyed by partnerCampaignId (null clears an optional field); it goes back to moderation.',
    request: campaignUpdate,
    response: statusResult,
    wrapping: 'result',
    idempotent: false,
    // failFinished: a finished campaign updated without a campaignEnd in the future (an emulator decision).
    errors: ['incorrectData', 'campaignNotFound', 'failFinished'],
  }),
  get: op({
    path: 'campaigns/get',
    summary: 'Read one campaign.',
    request: idRequest,
    response: campaignDetails,
    wrapping: 'result',
    idempotent: true,
    errors: ['incorrectData', 'campaignNotFound'],
  }),
  info: op({
    path: 'campaigns/info',
    summary: 'Read the statistics of one campaign.',
    request: idRequest,
    response: campaignInfo,
    wrapping: 'result',
    idempotent: true,
    errors: ['incorrectData', 'campaignNotFound'],
  }),
  start: op({
    path: 'campaigns/start',
    summary: 'Start a paused campaign.',
    request: idRequest,
    response: statusResult,
    wrapping: 'result',
    idempotent: false,
    errors: ['incorrectData', 'failPin', 'failFinished', 'failModerator', 'campaignNotFound'],
  }),
  stop: op({
    path: 'campaigns/stop',
    summary: 'Stop a campaign; it reads paused afterwards.',
    request: idRequest,
    response: statusResult,
    wrapping: 'result',
    idempotent: false,
    errors: ['incorrectData', 'failMerchant', 'failFinished', 'campaignNotFound'],
  }),
  redeem: op({
    path: 'campaigns/redeem',
    summary: 'Report a lead (use of an offer); idempotent on (campaign, transactionId).',
    request: redeemRequest,
    response: z.object({ ymCampaignId: z.number().int(), transactionId: z.string(), state: z.string() }),
    wrapping: 'result',
    idempotent: true,
    errors: ['incorrectData', 'campaignNotFound'],
  }),
  addPins: op({
    path: 'campaigns/add-pins',
    summary: 'Upload one-off pins; a pin-required campaign starts again.',
    request: z.object({ ymCampaignId, pinList: z.array(z.string()).min(1) }),
    response: z.object({ ymCampaignId: z.number().int(), campaignStatus, counters: pinCounters }),
    wrapping: 'result',
    idempotent: false,
    errors: ['incorrectData', 'campaignNotFound'],
  }),
  getAllCampaigns: op({
    path: 'campaigns/get-all-campaigns',
    summary: "A page of the partner's campaigns, ordered by ymCampaignId.",
    request: z.object({
      limit: z.number().int().min(1).max(MAX_PAGE_LIMIT),
      offset: z.number().int().nonnegative(),
    }),
    response: z.object({
      total: count,
      campaigns: z.array(z.object({ ymCampaignId: z.number().int(), campaignStatus })),
    }),
    wrapping: 'top-level',
    idempotent: true,
    errors: ['incorrectData'],
  }),
  getPinsByStatus: op({
    path: 'campaigns/get-pins-by-status',
    summary: 'All pins of a campaign in one status.',
    request: z.object({ ymCampaignId, pinStatus: z.enum(PIN_STATUSES) }),
    response: z.object({
      ymCampaignId: z.number().int(),
      pinStatus: lenientEnum(PIN_STATUSES),
      pins: z.array(z.string()),
    }),
    wrapping: 'result',
    idempotent: true,
    errors: ['incorrectData', 'campaignNotFound'],
  }),
  getCategories: op({
    path: 'categories/get',
    summary: 'The category directory, shared by all partners.',
    request: z.object({}),
    response: z.object({
      categories: z.array(z.object({ categoryId: z.number().int(), categoryName: z.string() })),
    }),
    wrapping: 'result',
    idempotent: true,
    errors: [],
  }),
} as const;

export type Operations = typeof operations;
export type OperationName = keyof Operations;
/** What a caller sends: the input side of the request schema. */
export type RequestOf<N extends OperationName> = z.input<Operations[N]['request']>;
/** What a caller gets back: the parsed payload (`result`, or the top level less `status`). */
export type ResponseOf<N extends OperationName> = z.output<Operations[N]['response']>;

export const OPERATION_NAMES = Object.keys(operations) as OperationName[];
export const operationByPath: ReadonlyMap<string, OperationName> = new Map(
  OPERATION_NAMES.map((name) => [operations[name].path, name]),
);

/** The error envelope the emulator answers with (docs/adr/rest-reference.md). */
export const errorEnvelope = z.object({
  status: z.literal('error'),
  errors: z.object({
    code: z.enum(BUSINESS_ERROR_CODES).or(z.string()),
    message: z.string(),
    fields: z.array(z.object({ field: z.string(), message: z.string() })).optional(),
  }),
  result: statusResult.optional(),
});
export type ErrorEnvelope = z.infer<typeof errorEnvelope>;
