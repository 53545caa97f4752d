/**
 * How each GraphQL enum value maps to the campaign API's value. codegen reads these (`enumValues`)
 * to type resolvers with the backend's values, and the schema's enum resolvers use the very same
 * objects at run time, so the two never disagree.
 *
 * `UNKNOWN` stands for any value the contract parsed as `{ unknown: raw }`; its
 * internal value is one the backend never sends for a known meaning.
 */
export const UNKNOWN_VALUE = 'unknown';
export const UNKNOWN_CURRENCY = 0;

export const CampaignStatusValues = {
  MODERATION: 'moderation',
  DECLINED: 'declined',
  PIN_REQUIRED: 'pin-required',
  STARTED: 'started',
  PAUSED: 'paused',
  FINISHED: 'finished',
  UNKNOWN: UNKNOWN_VALUE,
} as const;

export const CampaignTypeValues = {
  CODE_ONLINE: 'codeOnline',
  CODE_OFFLINE: 'codeOffline',
  PROMO: 'promo',
  BANNER: 'banner',
  CODE: 'code',
  UNKNOWN: UNKNOWN_VALUE,
} as const;

export const PinTypeValues = { ONE_OFF: 'one-off', REUSABLE: 'reusable', UNKNOWN: UNKNOWN_VALUE } as const;
export const PinDisplayTypeValues = { TEXT: 'text', EAN_13: 'ean_13', UNKNOWN: UNKNOWN_VALUE } as const;
export const PinStatusValues = {
  NEW_UNUSED: 'new_unused',
  ACCEPTED_BY_USER: 'accepted_by_user',
  REDEEM_RECEIVED: 'redeem_received',
} as const;
export const DiscountTypeValues = { TEXT: 'text', FIX: 'fix', PERCENT: 'percent', UNKNOWN: UNKNOWN_VALUE } as const;
export const FeeTypeValues = { PERCENT: 'percent', FIX: 'fix', UNKNOWN: UNKNOWN_VALUE } as const;
export const AppearanceTypeValues = { IMAGE_BANNER: 'ImageBanner', UNKNOWN: UNKNOWN_VALUE } as const;
export const CashbackTypeValues = { BONUS: 'bonus', MONEY: 'money', UNKNOWN: UNKNOWN_VALUE } as const;
export const PlatformValues = { MOBILE: 'mobile', DESKTOP: 'desktop', UNKNOWN: UNKNOWN_VALUE } as const;
export const RedeemStatusValues = { USED: 'used', APPROVED: 'approved', DECLINED: 'declined' } as const;
export const LeadStateValues = { PROCESSING: 'processing', UNKNOWN: UNKNOWN_VALUE } as const;
/** ISO 4217 numeric codes, as the campaign API writes currencies. */
export const CurrencyCodeValues = { RUB: 643, USD: 840, UNKNOWN: UNKNOWN_CURRENCY } as const;

/**
 * Backend error codes, the kinds of problem the BFF's own checks find
 * (the contract's IssueKind values), and the BFF's codes for multi-step mutations.
 */
export const UserErrorCodeValues = {
  REQUIRED: 'required',
  TOO_LONG: 'tooLong',
  FORMAT: 'format',
  OUT_OF_RANGE: 'outOfRange',
  NOT_ALLOWED: 'notAllowed',
  NOT_ALLOWED_NOW: 'notAllowedNow',
  NOT_FOUND: 'notFound',
  INCORRECT_DATA: 'incorrectData',
  REPEAT_CAMPAIGN_DATA: 'repeatCampaignData',
  CAMPAIGN_NOT_FOUND: 'campaignNotFound',
  FAIL_PIN: 'failPin',
  FAIL_FINISHED: 'failFinished',
  FAIL_MODERATOR: 'failModerator',
  FAIL_MERCHANT: 'failMerchant',
  BACKEND_UNAVAILABLE: 'backendUnavailable',
  BACKEND_BAD_RESPONSE: 'backendBadResponse',
  UNKNOWN: UNKNOWN_VALUE,
} as const;

/** An output enum's values less the read-only ones: what its input enum (`<Name>Input`) holds. */
function writable<T extends Record<string, string | number>, R extends keyof T>(values: T, readOnly: readonly R[]): Omit<T, R> {
  return Object.fromEntries(Object.entries(values).filter(([name]) => !(readOnly as readonly string[]).includes(name))) as Omit<T, R>;
}

export const CampaignStatusInputValues = writable(CampaignStatusValues, ['UNKNOWN']);
export const CampaignTypeInputValues = writable(CampaignTypeValues, ['CODE', 'UNKNOWN']);
export const PinTypeInputValues = writable(PinTypeValues, ['UNKNOWN']);
export const PinDisplayTypeInputValues = writable(PinDisplayTypeValues, ['UNKNOWN']);
export const DiscountTypeInputValues = writable(DiscountTypeValues, ['UNKNOWN']);
export const FeeTypeInputValues = writable(FeeTypeValues, ['UNKNOWN']);
export const AppearanceTypeInputValues = writable(AppearanceTypeValues, ['UNKNOWN']);
export const CashbackTypeInputValues = writable(CashbackTypeValues, ['UNKNOWN']);
export const PlatformInputValues = writable(PlatformValues, ['UNKNOWN']);
export const CurrencyCodeInputValues = writable(CurrencyCodeValues, ['UNKNOWN']);

export const ENUM_VALUES = {
  CampaignStatus: CampaignStatusValues,
  CampaignType: CampaignTypeValues,
  PinType: PinTypeValues,
  PinDisplayType: PinDisplayTypeValues,
  PinStatus: PinStatusValues,
  DiscountType: DiscountTypeValues,
  FeeType: FeeTypeValues,
  AppearanceType: AppearanceTypeValues,
  CashbackType: CashbackTypeValues,
  Platform: PlatformValues,
  RedeemStatus: RedeemStatusValues,
  LeadState: LeadStateValues,
  CurrencyCode: CurrencyCodeValues,
  UserErrorCode: UserErrorCodeValues,
  CampaignStatusInput: CampaignStatusInputValues,
  CampaignTypeInput: CampaignTypeInputValues,
  PinTypeInput: PinTypeInputValues,
  PinDisplayTypeInput: PinDisplayTypeInputValues,
  DiscountTypeInput: DiscountTypeInputValues,
  FeeTypeInput: FeeTypeInputValues,
  AppearanceTypeInput: AppearanceTypeInputValues,
  CashbackTypeInput: CashbackTypeInputValues,
  PlatformInput: PlatformInputValues,
  CurrencyCodeInput: CurrencyCodeInputValues,
} as const;
