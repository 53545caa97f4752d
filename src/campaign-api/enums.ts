import { z } from 'zod';

/** Campaign kinds a partner may create. `code` only appears in the reference's samples. */
export const CAMPAIGN_TYPES = ['codeOnline', 'codeOffline', 'promo', 'banner'] as const;
/** Kinds the backend may answer with: the writable ones plus the samples' `code`. */
export const ANSWERED_CAMPAIGN_TYPES = [...CAMPAIGN_TYPES, 'code'] as const;
export const CODE_CAMPAIGN_TYPES: readonly string[] = ['codeOnline', 'codeOffline', 'code'];

export const CAMPAIGN_STATUSES = ['moderation', 'declined', 'pin-required', 'started', 'paused', 'finished'] as const;
export const PIN_TYPES = ['one-off', 'reusable'] as const;
export const PIN_DISPLAY_TYPES = ['text', 'ean_13'] as const;
export const PIN_STATUSES = ['new_unused', 'accepted_by_user', 'redeem_received'] as const;
export const DISCOUNT_TYPES = ['text', 'fix', 'percent'] as const;
export const FEE_TYPES = ['percent', 'fix'] as const;
export const REDEEM_STATUSES = ['used', 'approved', 'declined'] as const;
export const CASHBACK_TYPES = ['bonus', 'money'] as const;
export const APPEARANCE_TYPES = ['ImageBanner'] as const;
export const PLATFORMS = ['mobile', 'desktop'] as const;
/** ISO 4217 numeric codes: 643 rouble, 840 US dollar. */
export const CURRENCY_CODES = [643, 840] as const;

/** The REST API's business error codes. */
export const BUSINESS_ERROR_CODES = [
  'incorrectData',
  'repeatCampaignData',
  'campaignNotFound',
  'failPin',
  'failFinished',
  'failModerator',
  'failMerchant',
] as const;

export type CampaignType = (typeof ANSWERED_CAMPAIGN_TYPES)[number];
export type CampaignStatus = (typeof CAMPAIGN_STATUSES)[number];
export type PinType = (typeof PIN_TYPES)[number];
export type PinDisplayType = (typeof PIN_DISPLAY_TYPES)[number];
export type PinStatus = (typeof PIN_STATUSES)[number];
export type DiscountType = (typeof DISCOUNT_TYPES)[number];
export type FeeType = (typeof FEE_TYPES)[number];
export type RedeemStatus = (typeof REDEEM_STATUSES)[number];
export type CurrencyCode = (typeof CURRENCY_CODES)[number];
export type BusinessErrorCode = (typeof BUSINESS_ERROR_CODES)[number];

/**
 * A value the backend sent that this contract does not know. Kept with its raw text so one odd
 * enum value never fails a whole page.
 */
export interface UnknownEnumValue {
  readonly unknown: string;
}

export function isUnknownEnumValue(value: unknown): value is UnknownEnumValue {
  return typeof value === 'object' && value !== null && 'unknown' in value;
}

/** Parses a known value as itself and anything else as `{ unknown: raw }`. */
export function lenientEnum<const T extends readonly [string, ...string[]]>(values: T) {
  return z.union([
    z.enum(values),
    z
      .string()
      .transform((raw): UnknownEnumValue => ({ unknown: raw }))
      .meta({ description: 'A value newer than this contract; kept as is.' }),
  ]);
}

export const currencyCode = z.union([z.literal(643), z.literal(840)]);
