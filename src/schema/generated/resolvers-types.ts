import type { GraphQLResolveInfo, GraphQLScalarType, GraphQLScalarTypeConfig } from 'graphql';
import type { CampaignRef, CampaignPage, PinPage, PinModel, CategoryModel, CampaignStatsModel, PinCountsModel, LeadCountsModel, LeadModel, UserErrorModel, StatusEvent, CardModel } from '../models.js';
import type { CampaignDetails } from '../../campaign-api/index.js';
import type { OfferPage, OfferModel, OfferFeedCategoryModel } from '../offers.js';
import type { GraphQLContext } from '../context.js';
export type Maybe<T> = T | null;
export type InputMaybe<T> = Maybe<T>;
export type Omit<T, K extends keyof T> = Pick<T, Exclude<keyof T, K>>;
export type EnumResolverSignature<T, AllowedValues = any> = { [key in keyof T]?: AllowedValues };
export type RequireFields<T, K extends keyof T> = Omit<T, K> & { [P in K]-?: NonNullable<T[P]> };
/** All built-in and custom scalars, mapped to their actual values */
export type Scalars = {
  ID: { input: string; output: string; }
  String: { input: string; output: string; }
  Boolean: { input: boolean; output: boolean; }
  Int: { input: number; output: number; }
  Float: { input: number; output: number; }
  /**
   * An instant in time, written as an RFC 3339 / ISO 8601 timestamp, such as
   * `2026-03-01T09:00:00.000Z`. The campaign API may store another time-zone offset; this API always
   * answers in UTC. Inputs take any offset (`2026-03-01T09:00:00+03:00`), and a value of the wrong
   * form is reported in the mutation's `userErrors` with the input's other problems.
   */
  DateTime: { input: string; output: string | Date; }
  /**
   * A non-negative decimal number with at most two decimals, written as a string so that no
   * precision is lost: `"15"`, `"0.5"`, `"10.00"`. Used for money and percentages. The lexical form
   * of XML Schema's `decimal` restricted to digits, an optional point and one or two decimals (no
   * sign, no exponent); docs/scalars.md in this API's repository states the full rules. In an input,
   * a value of another form is reported in the mutation's `userErrors`.
   */
  Decimal: { input: string; output: string; }
  /**
   * A colour written as a CSS hex code: `#RGB` or `#RRGGBB`, such as `#1A1A2E`. In an input, a value
   * of another form is reported in the mutation's `userErrors`.
   */
  HexColorCode: { input: string; output: string; }
  /**
   * A whole number from −(2^53 − 1) to 2^53 − 1 (9,007,199,254,740,991): every integer a JSON
   * number carries exactly, and every integer the campaign API takes for ids and counts. The type of
   * every id number (`partnerCampaignId` 3000000000 does not fit a 32-bit `Int`) and of every count
   * of this API (`totalCount`, statistics, `addPins`' counts); `Int` is left for small bounded
   * settings and arguments (`first`, hours, days, an index into an input list). A value beyond it is
   * refused (`BAD_USER_INPUT`), never rounded.
   */
  SafeInt: { input: number; output: number; }
  /**
   * An absolute URL, such as `https://cdn.example.ru/logo.png`. In an input, a value of another form
   * is reported in the mutation's `userErrors`.
   */
  URL: { input: string; output: string | URL; }
};

/** Promo codes to upload to a one-off code campaign. */
export type AddPinsInput = {
  /** The campaign (`Campaign.id`, or its `ymCampaignId` as digits): a `CODE_ONLINE` or `CODE_OFFLINE` campaign with `pinType` `ONE_OFF`. */
  campaignId: Scalars['ID']['input'];
  /**
   * The codes, at most 100,000 per call. Each must fit the campaign's `pinSettings.displayType`:
   * `TEXT` codes are 1 to 255 characters of plain text (see `CreateCampaignInput`) without
   * surrounding spaces, `EAN_13` codes exactly 13 digits. A code that is no plain text is refused
   * before the campaign is even read. Codes are matched case-insensitively: a code repeated in
   * this list is uploaded once (`duplicateCount`), and a code the campaign already has is kept once
   * (`alreadyPresentCount`).
   *
   * If any code is invalid, no code is uploaded: every invalid code is reported in `userErrors` by
   * its index (`["input", "pins", "<index>"]`), so the list can be fixed and sent again as a whole.
   */
  pins: Array<Scalars['String']['input']>;
};

/**
 * The result of `addPins`. It always says exactly what was stored: the codes are sent to the
 * campaign API in chunks, one after another, and when a chunk fails the codes from it on are listed
 * in `notStoredPins` (re-sending them is safe: codes the campaign already has are ignored).
 *
 * Concurrent `addPins` to one campaign are uploaded one after another by this server, so each
 * call's counts are exact and the `addedCount`s of all of them add up to the codes the campaign
 * gained. Codes that reach the campaign at the same moment another way (a direct campaign API
 * call, another server of this API) may be counted by the upload running then, as added rather
 * than already present; never more than the codes it sent.
 */
export type AddPinsPayload = {
  __typename?: 'AddPinsPayload';
  /**
   * Codes this call added to the campaign: new in the campaign (in any case) and confirmed stored.
   * 0 when the input was refused as a whole.
   */
  addedCount: Scalars['SafeInt']['output'];
  /**
   * Codes sent that the campaign already had (in any case), so were not added again:
   * `storedCount` − `addedCount`.
   */
  alreadyPresentCount: Scalars['SafeInt']['output'];
  /**
   * The campaign with its status after the upload (a `PIN_REQUIRED` campaign starts again).
   * `null` when the campaign was not found.
   */
  campaign?: Maybe<Campaign>;
  /**
   * Codes of the input dropped because they repeat an earlier code of the input (case-insensitively).
   * 0 when the input was refused as a whole: nothing of it was taken, duplicates included.
   */
  duplicateCount: Scalars['SafeInt']['output'];
  /**
   * The index in the input of the first code not confirmed stored: every code before it is stored
   * (and so is any later repeat of those). 0 when nothing was sent; `null` when everything was stored.
   */
  firstNotStoredIndex?: Maybe<Scalars['Int']['output']>;
  /**
   * When an upload stopped part-way: the distinct codes not confirmed stored, in input order,
   * from the chunk that failed (which the campaign API may or may not have stored, when the
   * connection failed after sending) to the end. Empty when everything was stored, and when the
   * input was refused as a whole before anything was sent (`firstNotStoredIndex` is then 0).
   */
  notStoredPins: Array<Scalars['String']['output']>;
  /** Distinct codes of the input the campaign API confirmed it stored (added or already present). */
  storedCount: Scalars['SafeInt']['output'];
  /**
   * Why codes were not stored: invalid codes (by index), a campaign that takes no codes, too many
   * codes, or a chunk the campaign API refused or could not take.
   */
  userErrors: Array<UserError>;
};

/** How a banner is displayed. */
export type AppearanceType =
  /** The user taps the image (`backgroundImage`) to follow the tracked link. */
  | 'ImageBanner'
  /** A value this API does not know yet. */
  | 'unknown';

/** How a banner is displayed (`AppearanceType` without `UNKNOWN`). */
export type AppearanceTypeInput =
  /** The user taps the image (`backgroundImage`) to follow the tracked link. */
  | 'ImageBanner';

/** What a bonus was spent on. */
export type BonusDescriptionInput = {
  /** A purchase category, free text. */
  category?: InputMaybe<Scalars['String']['input']>;
};

/** Who a remembered answer may be sent to (see `@cacheControl`). */
export type CacheControlScope =
  /** Only the caller it was made for. */
  | 'PRIVATE'
  /** Every caller: the answer is the same for all of them. */
  | 'PUBLIC';

/**
 * A discount or bonus offer of a partner (an aggregator or a store), shown to users in the offer
 * feed. Created with `createCampaign`, checked by a moderator, then started and stopped.
 *
 * Fields marked "from the campaign's record" are read together with one `campaigns/get` call the
 * first time any of them is asked for; `stats`, `pins` and `category` cost their own reads and are
 * `null` (with an error in `errors`) only when that read failed.
 */
export type Campaign = Node & {
  __typename?: 'Campaign';
  /**
   * The tracked link a user follows to get the bonus (`acceptUrl`); the campaign API appends its
   * click id to it. `null` for campaigns without one. From the campaign's record.
   */
  acceptUrl?: Maybe<Scalars['URL']['output']>;
  /** How the offer looks: colours and background image. From the campaign's record. */
  appearance: CampaignAppearance;
  /** Everything a mobile app needs to draw the offer card, in one object. From the campaign's record. */
  card: CampaignCard;
  /** Cashback settings; `null` for campaigns that are not cashback offers. From the campaign's record. */
  cashback?: Maybe<CampaignCashback>;
  /**
   * The campaign's category from the shared directory; `null` when the campaign has no category or
   * the directory does not list it.
   */
  category?: Maybe<Category>;
  /**
   * The id of the campaign's category. From the campaign's record; `null` when the campaign API
   * does not return it.
   */
  categoryId?: Maybe<Scalars['ID']['output']>;
  /** The conditions for getting the bonus, in Russian (at most 512 characters). From the campaign's record. */
  conditions: Scalars['String']['output'];
  /** The offer's description, in Russian (at most 90 characters). From the campaign's record. */
  description: Scalars['String']['output'];
  /** What the user gets: a percentage, a fixed amount or a text bonus. From the campaign's record. */
  discount: CampaignDiscount;
  /**
   * When the campaign stops being shown and becomes `FINISHED`; `null` when it runs until stopped.
   * From the campaign's record.
   */
  endsAt?: Maybe<Scalars['DateTime']['output']>;
  /** What the partner pays the service per lead. From the campaign's record. */
  fee: CampaignFee;
  /**
   * The campaign's global id: opaque, to store and send back as it is (every argument that takes a
   * campaign takes it). Its number in the campaign API is `ymCampaignId`.
   */
  id: Scalars['ID']['output'];
  /** Who offers the bonus: the store's name, site and logos. From the campaign's record. */
  merchant: CampaignMerchant;
  /**
   * How many hours a user can use an offer they saved (`offerDuration`); `null` when the campaign
   * API's default applies. From the campaign's record.
   */
  offerDurationHours?: Maybe<Scalars['Int']['output']>;
  /**
   * Another end of the offer period (`offerEnd`); `null` when the default period applies. From the
   * campaign's record.
   */
  offerEndsAt?: Maybe<Scalars['DateTime']['output']>;
  /**
   * The partner's own id of the campaign (`partnerCampaignId`), used by `updateCampaign`.
   * From the campaign's record; `null` when the campaign API does not return it.
   */
  partnerCampaignId?: Maybe<Scalars['SafeInt']['output']>;
  /**
   * How promo codes are handed out; `null` for campaigns without codes (`PROMO`, `BANNER`).
   * From the campaign's record.
   */
  pinSettings?: Maybe<CampaignPinSettings>;
  /**
   * The campaign's promo codes in one status, a page at a time (one-off code campaigns only; others
   * have none). Costs one `campaigns/get-pins-by-status` call per campaign and status.
   */
  pins?: Maybe<PinConnection>;
  /** The status exactly as the campaign API sent it, such as `pin-required`. */
  rawStatus: Scalars['String']['output'];
  /** The kind exactly as the campaign API sent it, such as `codeOnline`. From the campaign's record. */
  rawType: Scalars['String']['output'];
  /**
   * When the campaign starts (or started) by schedule; `null` when it starts on approval or by
   * `startCampaign`. From the campaign's record.
   */
  startsAt?: Maybe<Scalars['DateTime']['output']>;
  /**
   * Counters of shows, offers taken, leads and pins, with rates derived from them. Costs one
   * `campaigns/info` call per campaign.
   */
  stats?: Maybe<CampaignStats>;
  /**
   * Where the campaign is in its life cycle. `UNKNOWN` when the campaign API reports a status this
   * API does not know yet; `rawStatus` then has it as sent.
   */
  status: CampaignStatus;
  /** The devices the offer is shown on; `null` means all. From the campaign's record. */
  supportedPlatforms?: Maybe<Array<Platform>>;
  /** The kind of offer: how a user gets the bonus. From the campaign's record. */
  type: CampaignType;
  /**
   * The campaign's number in the campaign API (its `ymCampaignId`), as partners see it in that
   * API's answers and logs. Arguments that take a campaign accept it too, written as digits.
   */
  ymCampaignId: Scalars['SafeInt']['output'];
};


/**
 * A discount or bonus offer of a partner (an aggregator or a store), shown to users in the offer
 * feed. Created with `createCampaign`, checked by a moderator, then started and stopped.
 *
 * Fields marked "from the campaign's record" are read together with one `campaigns/get` call the
 * first time any of them is asked for; `stats`, `pins` and `category` cost their own reads and are
 * `null` (with an error in `errors`) only when that read failed.
 */
export type CampaignPinsArgs = {
  after?: InputMaybe<Scalars['String']['input']>;
  first?: InputMaybe<Scalars['Int']['input']>;
  status: PinStatus;
};

/** How the offer looks in the feed. */
export type CampaignAppearance = {
  __typename?: 'CampaignAppearance';
  /** How a banner is displayed; `null` for campaigns that are not banners. */
  appearanceType?: Maybe<AppearanceType>;
  /** The card's background colour; never a light colour. */
  backgroundColor: Scalars['HexColorCode']['output'];
  /** A 500×500 px JPG or PNG behind the offer; `null` means the app shows its picture for the category. */
  backgroundImageUrl?: Maybe<Scalars['URL']['output']>;
  /** The text colour, contrasting with the background (WCAG ratio at least 4.5:1). */
  fontColor: Scalars['HexColorCode']['output'];
};

/** How the offer looks, as `Campaign.appearance` has it. */
export type CampaignAppearanceInput = {
  /** How a banner is displayed; required for `BANNER`. */
  appearanceType?: InputMaybe<AppearanceTypeInput>;
  /** The card's background colour, `#RGB` or `#RRGGBB`; not light (relative luminance at most 0.5). */
  backgroundColor: Scalars['HexColorCode']['input'];
  /**
   * Link to a 500×500 px JPG or PNG of at most 300 KB; required for a `BANNER` with `IMAGE_BANNER`.
   * When omitted, the app shows its picture for the category.
   */
  backgroundImageUrl?: InputMaybe<Scalars['URL']['input']>;
  /** The text colour, `#RGB` or `#RRGGBB`, with a WCAG contrast ratio of at least 4.5:1 against `backgroundColor`. */
  fontColor: Scalars['HexColorCode']['input'];
};

/**
 * Everything a mobile app needs to draw a campaign's offer card, in one object, so a feed screen
 * asks for `card` and nothing else.
 */
export type CampaignCard = {
  __typename?: 'CampaignCard';
  /** Where the card's button leads (the tracked `acceptUrl`); `null` for offers without a link. */
  actionUrl?: Maybe<Scalars['URL']['output']>;
  /** The card's background colour. */
  backgroundColor: Scalars['HexColorCode']['output'];
  /** The picture behind the offer; `null` means: show the app's picture for the category. */
  backgroundImageUrl?: Maybe<Scalars['URL']['output']>;
  /** The conditions for getting the bonus, in Russian. */
  conditions: Scalars['String']['output'];
  /** The offer in one line, in Russian. */
  description: Scalars['String']['output'];
  /**
   * The discount formatted for people: `"15 %"` for a percentage, `"500 ₽"` or `"$5"` for a fixed
   * amount, or the text bonus as it is.
   */
  discountLabel: Scalars['String']['output'];
  /** The text colour, contrasting with the background. */
  fontColor: Scalars['HexColorCode']['output'];
  /** A round PNG logo with a transparent background, 240×240 px. */
  logoPngUrl: Scalars['URL']['output'];
  /** A round SVG logo, 80×80 px. */
  logoSvgUrl: Scalars['URL']['output'];
  /** The card's title: the store's name. */
  title: Scalars['String']['output'];
};


/**
 * Everything a mobile app needs to draw a campaign's offer card, in one object, so a feed screen
 * asks for `card` and nothing else.
 */
export type CampaignCardDiscountLabelArgs = {
  locale?: InputMaybe<Scalars['String']['input']>;
};

/** Cashback settings of a cashback offer. */
export type CampaignCashback = {
  __typename?: 'CampaignCashback';
  /** Days within which a lead must be confirmed with `reportLead` for the cashback to be credited. */
  confirmDays?: Maybe<Scalars['Int']['output']>;
  /** Whether cashback is paid as bonus points or as money. */
  type?: Maybe<CashbackType>;
};

/**
 * Cashback settings of a cashback offer, as `Campaign.cashback` has them. In `updateCampaign` the
 * fields given change and `null` clears one.
 */
export type CampaignCashbackInput = {
  /** Days (0 to 3650) within which a lead must be confirmed with `reportLead`. */
  confirmDays?: InputMaybe<Scalars['Int']['input']>;
  /** Whether cashback is paid as bonus points or as money. */
  type?: InputMaybe<CashbackTypeInput>;
};

/** A page of campaigns. */
export type CampaignConnection = {
  __typename?: 'CampaignConnection';
  /** The campaigns of this page with their cursors. */
  edges: Array<CampaignEdge>;
  /**
   * The campaigns of this page. An item is `null` only when reading that campaign's record failed;
   * `errors` then says why.
   */
  nodes: Array<Maybe<Campaign>>;
  /** Where this page starts and ends. */
  pageInfo: PageInfo;
  /** How many campaigns there are in all (with the `status` filter: how many have that status). */
  totalCount: Scalars['SafeInt']['output'];
};

/** What the user gets. */
export type CampaignDiscount = {
  __typename?: 'CampaignDiscount';
  /**
   * The discount as the campaign API stores it: a number such as `"15"` for `PERCENT` and `FIX`,
   * or a Russian text such as `"Подарок к заказу"` for `TEXT`.
   */
  amount: Scalars['String']['output'];
  /** The currency of a `FIX` discount; `null` when the campaign API does not say (roubles then). */
  currency?: Maybe<CurrencyCode>;
  /**
   * The discount formatted for people, as the card shows it: `"15 %"`, `"500 ₽"`, `"$5"`, or
   * the text bonus as it is.
   */
  label: Scalars['String']['output'];
  /** Whether the discount is a percentage, a fixed amount or a text bonus. */
  type: DiscountType;
  /**
   * The discount as a number, for `PERCENT` (a percentage) and `FIX` (an amount in `currency`);
   * `null` for text bonuses.
   */
  value?: Maybe<Scalars['Decimal']['output']>;
};


/** What the user gets. */
export type CampaignDiscountLabelArgs = {
  locale?: InputMaybe<Scalars['String']['input']>;
};

/** What the user gets, as `Campaign.discount` has it (`value` and `label` are derived, read-only). */
export type CampaignDiscountInput = {
  /** The discount: a percentage above 0 and at most 100 for `PERCENT` (`"15"`), a decimal amount for `FIX` (`"500"`, `"9.99"`), or a Russian text for `TEXT`; at most 30 characters. */
  amount: Scalars['String']['input'];
  /** The currency of a `FIX` discount; `USD` only with `FIX`. Roubles when omitted. */
  currency?: InputMaybe<CurrencyCodeInput>;
  /** How the discount is expressed. */
  type: DiscountTypeInput;
};

/** A campaign in a page, with its cursor. */
export type CampaignEdge = {
  __typename?: 'CampaignEdge';
  /**
   * An opaque cursor; pass it as `after` to read the campaigns after this one (same partner and
   * `status` filter only).
   */
  cursor: Scalars['String']['output'];
  /** The campaign; `null` only when reading its record failed. */
  node?: Maybe<Campaign>;
};

/** What the partner pays the service for a lead: a fixed fee or a range. */
export type CampaignFee = {
  __typename?: 'CampaignFee';
  /** The fee, when a single value was set (`campaignFee`). */
  amount?: Maybe<Scalars['Decimal']['output']>;
  /** The fee's currency; `null` when the campaign API does not say (roubles then). */
  currency?: Maybe<CurrencyCode>;
  /** The highest fee, when a range was set (`campaignFeeMax`). */
  max?: Maybe<Scalars['Decimal']['output']>;
  /** The lowest fee, when a range was set (`campaignFeeMin`). */
  min?: Maybe<Scalars['Decimal']['output']>;
  /**
   * Whether the fee is a share of the order (`PERCENT`) or a fixed amount (`FIX`); `null` when the
   * campaign API does not return it.
   */
  type?: Maybe<FeeType>;
};

/**
 * What the partner pays per lead, as `Campaign.fee` has it: a single `amount`, or the range `min`
 * to `max` (exactly one of the two forms).
 */
export type CampaignFeeInput = {
  /** The fee per lead. Give either this or both `min` and `max`. */
  amount?: InputMaybe<Scalars['Decimal']['input']>;
  /** The fee's currency; roubles when omitted. */
  currency?: InputMaybe<CurrencyCodeInput>;
  /** The highest fee per lead, with `min`. */
  max?: InputMaybe<Scalars['Decimal']['input']>;
  /** The lowest fee per lead, with `max`; at most `max`. */
  min?: InputMaybe<Scalars['Decimal']['input']>;
  /** Whether the fee is a share of the order or a fixed amount. */
  type: FeeTypeInput;
};

/** Who offers the bonus. */
export type CampaignMerchant = {
  __typename?: 'CampaignMerchant';
  /** The store's site, a bare host name such as `shop.example.ru` (`merchantDomain`). */
  domain: Scalars['String']['output'];
  /** A round PNG logo with a transparent background, 240×240 px (`merchantLogoPng`). */
  logoPngUrl: Scalars['URL']['output'];
  /** A round SVG logo, 80×80 px (`merchantLogoSvg`). */
  logoSvgUrl: Scalars['URL']['output'];
  /** The store's name as users see it (`merchantName`). */
  name: Scalars['String']['output'];
};

/** Who offers the bonus, as `Campaign.merchant` has it. */
export type CampaignMerchantInput = {
  /** The store's site as a bare host name, such as `shop.example.ru`: no `https://`, no `www.`, no trailing slash. */
  domain: Scalars['String']['input'];
  /** Link to a round PNG logo with a transparent background, 240×240 px, at most 100 KB; an absolute http(s) URL of at most 300 characters. */
  logoPngUrl: Scalars['URL']['input'];
  /** Link to a round SVG logo, 80×80 px with a viewBox, at most 100 KB; an absolute http(s) URL of at most 300 characters. */
  logoSvgUrl: Scalars['URL']['input'];
  /** The store's name as users see it, 1 to 300 characters. */
  name: Scalars['String']['input'];
};

/** How a code campaign hands out promo codes (pins). */
export type CampaignPinSettings = {
  __typename?: 'CampaignPinSettings';
  /** The code every user gets, for `REUSABLE` campaigns. */
  couponCode?: Maybe<Scalars['String']['output']>;
  /**
   * How the code is shown: as text or as an EAN-13 barcode. `null` when the campaign API does not
   * return it.
   */
  displayType?: Maybe<PinDisplayType>;
  /** When handed-out codes expire (`pinEnd`); `null` when the campaign API does not say. */
  expiresAt?: Maybe<Scalars['DateTime']['output']>;
  /** One code per user (`ONE_OFF`, uploaded with `addPins`) or one code for everyone (`REUSABLE`). */
  pinType?: Maybe<PinType>;
};

/**
 * How a code campaign hands out promo codes, as `Campaign.pinSettings` has it (`expiresAt` is the
 * campaign API's, read-only).
 */
export type CampaignPinSettingsInput = {
  /** The code every user gets; required when `pinType` is `REUSABLE`, refused for `ONE_OFF`. Must fit `displayType`. */
  couponCode?: InputMaybe<Scalars['String']['input']>;
  /** How codes are shown: as text or as an EAN-13 barcode. */
  displayType: PinDisplayTypeInput;
  /** One code per user (`ONE_OFF`, uploaded with `addPins`) or one code for everyone (`REUSABLE`). */
  pinType: PinTypeInput;
};

/**
 * A campaign's counters from the campaign API, with rates derived from them. A rate is `null` when
 * its denominator is zero (for example, no shows yet).
 */
export type CampaignStats = {
  __typename?: 'CampaignStats';
  /** Offers taken per show: (accepts + redeems) / shows, from 0 upwards; `null` before the first show. */
  acceptRate?: Maybe<Scalars['Float']['output']>;
  /** Offers users took (a code or a link) and have not used yet. */
  accepts: Scalars['SafeInt']['output'];
  /**
   * Approved leads per reported lead: approved / (used + approved + declined); `null` before the
   * first lead.
   */
  approvalRate?: Maybe<Scalars['Float']['output']>;
  /** Leads per offer taken: redeems / (accepts + redeems); `null` before an offer was taken. */
  conversionRate?: Maybe<Scalars['Float']['output']>;
  /** Reported leads by their current status. */
  leads: LeadCounts;
  /** The campaign's promo codes by use. */
  pins: PinCounts;
  /** Leads per show: redeems / shows; `null` before the first show. */
  redeemRate?: Maybe<Scalars['Float']['output']>;
  /** Offers used: leads reported with `reportLead`. */
  redeems: Scalars['SafeInt']['output'];
  /** How many times users saw the offer. */
  shows: Scalars['SafeInt']['output'];
};

/** Where a campaign is in its life cycle. */
export type CampaignStatus =
  /** Rejected by the moderator; update it to send it to moderation again. */
  | 'declined'
  /** Archived after its end date; it cannot run again. */
  | 'finished'
  /** Being checked by a moderator. */
  | 'moderation'
  /** Not shown: approved and waiting to be started, or stopped with `stopCampaign`. */
  | 'paused'
  /** Running out of promo codes stopped it: upload codes with `addPins` and it starts again. */
  | 'pin-required'
  /** Running: users see the offer. */
  | 'started'
  /** A status this API does not know yet; see `Campaign.rawStatus`. */
  | 'unknown';

/** A campaign's status changed. */
export type CampaignStatusEvent = {
  __typename?: 'CampaignStatusEvent';
  /**
   * When this API saw the change: the answer of the mutation that made it, or the read of the
   * campaign API that found it.
   */
  at: Scalars['DateTime']['output'];
  /**
   * The campaign, with its new status. `id` and `status` cost nothing; any other field reads the
   * campaign from the campaign API when the event is sent (once per event for all of the
   * partner's subscribers on one server).
   */
  campaign: Campaign;
  /** The status before the change; `null` when the campaign is new (just created). */
  previousStatus?: Maybe<CampaignStatus>;
  /** The status after the change (the same as `campaign.status`). */
  status: CampaignStatus;
};

/**
 * A status to list campaigns in (`CampaignStatus` without `UNKNOWN`, which names no status to ask
 * for: a campaign in a status this API does not know yet is listed without a filter).
 */
export type CampaignStatusInput =
  /** Rejected by the moderator. */
  | 'declined'
  /** Archived after its end date. */
  | 'finished'
  /** Being checked by a moderator. */
  | 'moderation'
  /** Not shown: approved and waiting to be started, or stopped. */
  | 'paused'
  /** Stopped by running out of promo codes. */
  | 'pin-required'
  /** Running: users see the offer. */
  | 'started';

/** The kind of offer: how a user gets the bonus. */
export type CampaignType =
  /** An image banner that links to `acceptUrl`. */
  | 'banner'
  /**
   * A code campaign of an older kind that the campaign API may still return. Read-only: create
   * `CODE_ONLINE` or `CODE_OFFLINE` campaigns instead.
   */
  | 'code'
  /** A promo code shown in a physical store (text or barcode). */
  | 'codeOffline'
  /** A promo code for an online store; the user also follows `acceptUrl`. */
  | 'codeOnline'
  /** A promotion without a code: the user follows `acceptUrl`. */
  | 'promo'
  /** A kind this API does not know yet; see `Campaign.rawType`. */
  | 'unknown';

/**
 * The kind of offer a campaign is created or changed to (`CampaignType` without its read-only
 * values).
 */
export type CampaignTypeInput =
  /** An image banner that links to `acceptUrl`. */
  | 'banner'
  /** A promo code shown in a physical store (text or barcode). */
  | 'codeOffline'
  /** A promo code for an online store; the user also follows `acceptUrl`. */
  | 'codeOnline'
  /** A promotion without a code: the user follows `acceptUrl`. */
  | 'promo';

/** How cashback is paid. */
export type CashbackType =
  /** As bonus points. */
  | 'bonus'
  /** As money. */
  | 'money'
  /** A value this API does not know yet. */
  | 'unknown';

/** How cashback is paid (`CashbackType` without `UNKNOWN`). */
export type CashbackTypeInput =
  /** As bonus points. */
  | 'bonus'
  /** As money. */
  | 'money';

/**
 * A category of offers from the campaign API's directory, shared by all partners (for example
 * "Электроника"). Every campaign belongs to one.
 */
export type Category = {
  __typename?: 'Category';
  /** The category id; pass it as `categoryId` when creating or updating a campaign. */
  id: Scalars['ID']['output'];
  /** The category name, in Russian. */
  name: Scalars['String']['output'];
};

/**
 * A new campaign. Fields carry the names and types of `Campaign`'s fields, grouped as `Campaign`
 * groups them (`merchant`, `appearance`, `discount`, `fee`, `pinSettings`, `cashback`): a form
 * filled from a query of a campaign is sent as it is. Every value is checked by this API before
 * anything is sent to the campaign API, and every problem comes back at once in `userErrors`, each
 * naming its field by its path (`["input", "merchant", "logoPngUrl"]`) and saying what kind of
 * problem it is (`code`). A value of a custom scalar in the wrong form (a `DateTime` without an
 * offset, a `HexColorCode` that is no colour) is one of those problems too: it is reported with the
 * others (`FORMAT`) rather than failing the whole request.
 *
 * Every string field holds plain text, stored and returned exactly as sent: not empty and not
 * blank (only spaces or invisible characters); no control character (only `conditions` may hold
 * line breaks, written `\n`; no tab, no `\r`); no lone surrogate; no bidirectional control
 * (U+061C, U+200E, U+200F, U+202A to U+202E, U+2066 to U+2069) or other invisible format character
 * (U+180E, U+200B, U+2060 to U+2064, U+206A to U+206F, U+FEFF, U+FFF9 to U+FFFB); no line or
 * paragraph separator (U+2028, U+2029); no noncharacter. Emoji (joiners and variation selectors
 * included) and every script are welcome.
 */
export type CreateCampaignInput = {
  /** The tracked link a user follows to get the bonus, an absolute http(s) URL; required for `PROMO`, `BANNER` and `CODE_ONLINE`. */
  acceptUrl?: InputMaybe<Scalars['URL']['input']>;
  /** How the offer looks. */
  appearance: CampaignAppearanceInput;
  /** Cashback settings, for cashback offers. */
  cashback?: InputMaybe<CampaignCashbackInput>;
  /** The category (`Category.id`) from the `categories` directory. */
  categoryId: Scalars['ID']['input'];
  /**
   * The conditions for getting the bonus, in Russian, 1 to 512 characters; the one field that may
   * hold line breaks (`\n`), shown as paragraphs.
   */
  conditions: Scalars['String']['input'];
  /** The offer in one line (no line breaks), in Russian, 1 to 90 characters. */
  description: Scalars['String']['input'];
  /** What the user gets. */
  discount: CampaignDiscountInput;
  /** When the campaign stops being shown and becomes `FINISHED`, with an offset, after `startsAt`. */
  endsAt?: InputMaybe<Scalars['DateTime']['input']>;
  /** What the partner pays per lead. */
  fee: CampaignFeeInput;
  /** Who offers the bonus. */
  merchant: CampaignMerchantInput;
  /** Hours a user can use an offer they saved, 1 to 100000. */
  offerDurationHours?: InputMaybe<Scalars['Int']['input']>;
  /** Another end of the offer period, with an offset. */
  offerEndsAt?: InputMaybe<Scalars['DateTime']['input']>;
  /** The partner's own id of the campaign, a positive integer unique in the partner's system. Creating again with the same id replaces that campaign. */
  partnerCampaignId: Scalars['SafeInt']['input'];
  /** How promo codes are handed out; required for `CODE_ONLINE` and `CODE_OFFLINE`, refused for the others. */
  pinSettings?: InputMaybe<CampaignPinSettingsInput>;
  /** When the campaign starts by schedule, once approved, with an offset, such as `2026-03-01T09:00:00+03:00`. Without it, an aggregator's campaign starts at once and a store's campaign on approval. */
  startsAt?: InputMaybe<Scalars['DateTime']['input']>;
  /** The devices to show the offer on; all when omitted. */
  supportedPlatforms?: InputMaybe<Array<PlatformInput>>;
  /** The kind of offer. */
  type: CampaignTypeInput;
};

/** The result of `createCampaign`. */
export type CreateCampaignPayload = {
  __typename?: 'CreateCampaignPayload';
  /** The new (or replaced) campaign, normally in `MODERATION`; `null` when it was refused. */
  campaign?: Maybe<Campaign>;
  /** Every problem with the input, each naming its field; empty on success. */
  userErrors: Array<UserError>;
};

/** An ISO 4217 currency. */
export type CurrencyCode =
  /** Russian rouble (ISO 4217 numeric code 643). The default wherever a currency is optional. */
  | 643
  /** A currency code this API does not know yet. */
  | 0
  /** US dollar (ISO 4217 numeric code 840). */
  | 840;

/** An ISO 4217 currency (`CurrencyCode` without `UNKNOWN`). */
export type CurrencyCodeInput =
  /** Russian rouble (ISO 4217 numeric code 643). The default wherever a currency is optional. */
  | 643
  /** US dollar (ISO 4217 numeric code 840). */
  | 840;

/** How the discount is expressed. */
export type DiscountType =
  /** A fixed amount off, in the discount's currency. */
  | 'fix'
  /** A percentage off, above 0 and at most 100. */
  | 'percent'
  /** A bonus, gift or special offer described in Russian text. */
  | 'text'
  /** A value this API does not know yet. */
  | 'unknown';

/** How the discount is expressed (`DiscountType` without `UNKNOWN`). */
export type DiscountTypeInput =
  /** A fixed amount off, in the discount's currency. */
  | 'fix'
  /** A percentage off, above 0 and at most 100. */
  | 'percent'
  /** A bonus, gift or special offer described in Russian text. */
  | 'text';

/** How the partner's fee per lead is computed. */
export type FeeType =
  /** A fixed amount per lead. */
  | 'fix'
  /** A share of the paid order, in percent. */
  | 'percent'
  /** A value this API does not know yet. */
  | 'unknown';

/** How the partner's fee per lead is computed (`FeeType` without `UNKNOWN`). */
export type FeeTypeInput =
  /** A fixed amount per lead. */
  | 'fix'
  /** A share of the paid order, in percent. */
  | 'percent';

/** A lead: a user used an offer, as reported by the partner with `reportLead`. */
export type Lead = {
  __typename?: 'Lead';
  /** The campaign whose offer was used. */
  campaign: Campaign;
  /** The status this report gave the lead. */
  redeemStatus: RedeemStatus;
  /** What the campaign API does with the report. */
  state: LeadState;
  /**
   * The store's order id; reporting the same id again moves this lead's status on instead of
   * adding a lead.
   */
  transactionId: Scalars['String']['output'];
};

/** How many leads a campaign has, by their current status. */
export type LeadCounts = {
  __typename?: 'LeadCounts';
  /** Leads the partner will pay for. */
  approved: Scalars['SafeInt']['output'];
  /** Leads the partner will not pay for (for example after a return). */
  declined: Scalars['SafeInt']['output'];
  /** Leads reported as used and not yet approved or declined. */
  used: Scalars['SafeInt']['output'];
};

/** What the campaign API does with a reported lead. */
export type LeadState =
  /** Accepted and being processed. */
  | 'processing'
  /** A state this API does not know yet. */
  | 'unknown';

/**
 * The root of every change. Every mutation needs the partner token and answers with a payload:
 * the changed resource, and `userErrors` for every problem a person can act on (invalid values,
 * refusals of the campaign API). Inputs are checked before anything is sent to the campaign API.
 */
export type Mutation = {
  __typename?: 'Mutation';
  /**
   * Uploads promo codes to a one-off code campaign, up to 100,000 per call. Invalid codes are all
   * reported and then nothing is uploaded; valid codes are sent in chunks and the payload says
   * exactly how many were added and which were not stored. Several calls for one campaign at once
   * are uploaded one after another, so their counts add up (see `AddPinsPayload`).
   */
  addPins: AddPinsPayload;
  /**
   * Creates a campaign and sends it to moderation. Creating again with the same
   * `partnerCampaignId` replaces that campaign's data (and sends it to moderation again), unless
   * the discount amount differs (`REPEAT_CAMPAIGN_DATA`).
   */
  createCampaign: CreateCampaignPayload;
  /**
   * Reports a lead (a user used an offer). Idempotent on (campaign, `transactionId`): the same
   * report twice changes nothing, a later report may move its `redeemStatus` on; a later report
   * that differs in anything else is refused (`INCORRECT_DATA`, naming the field).
   */
  reportLead: ReportLeadPayload;
  /**
   * Starts a paused (approved or stopped) campaign. The payload carries the campaign with its
   * current status whether it started or not.
   */
  startCampaign: StartCampaignPayload;
  /**
   * Stops a campaign: it is no longer shown and reads `PAUSED`. The payload carries the campaign
   * with its current status whether it stopped or not.
   */
  stopCampaign: StopCampaignPayload;
  /**
   * Changes some fields of a campaign, found by its `id`; the campaign goes back to moderation.
   * Only the fields given change, and `null` clears an optional one (see `UpdateCampaignInput`).
   * An update that changes nothing (no field but `id`, or every value the campaign already has,
   * as a form saved again or a retried request sends it) succeeds with the campaign as it is and
   * writes nothing to the campaign API, so it never sends a running campaign back to moderation.
   *
   * Concurrency: this mutation reads the campaign, applies the fields given and sends the whole
   * record to the campaign API, which stores what it is sent. Two updates of one campaign at the
   * same time therefore do not merge: each sends the campaign as it read it plus its own changes,
   * and the one the campaign API takes last wins on every field, so the other's changes are lost
   * although both answered success. Send the changes of one campaign one after another (or in one
   * update), and read the campaign back when in doubt.
   */
  updateCampaign: UpdateCampaignPayload;
};


/**
 * The root of every change. Every mutation needs the partner token and answers with a payload:
 * the changed resource, and `userErrors` for every problem a person can act on (invalid values,
 * refusals of the campaign API). Inputs are checked before anything is sent to the campaign API.
 */
export type MutationAddPinsArgs = {
  input: AddPinsInput;
};


/**
 * The root of every change. Every mutation needs the partner token and answers with a payload:
 * the changed resource, and `userErrors` for every problem a person can act on (invalid values,
 * refusals of the campaign API). Inputs are checked before anything is sent to the campaign API.
 */
export type MutationCreateCampaignArgs = {
  input: CreateCampaignInput;
};


/**
 * The root of every change. Every mutation needs the partner token and answers with a payload:
 * the changed resource, and `userErrors` for every problem a person can act on (invalid values,
 * refusals of the campaign API). Inputs are checked before anything is sent to the campaign API.
 */
export type MutationReportLeadArgs = {
  input: ReportLeadInput;
};


/**
 * The root of every change. Every mutation needs the partner token and answers with a payload:
 * the changed resource, and `userErrors` for every problem a person can act on (invalid values,
 * refusals of the campaign API). Inputs are checked before anything is sent to the campaign API.
 */
export type MutationStartCampaignArgs = {
  id: Scalars['ID']['input'];
};


/**
 * The root of every change. Every mutation needs the partner token and answers with a payload:
 * the changed resource, and `userErrors` for every problem a person can act on (invalid values,
 * refusals of the campaign API). Inputs are checked before anything is sent to the campaign API.
 */
export type MutationStopCampaignArgs = {
  id: Scalars['ID']['input'];
};


/**
 * The root of every change. Every mutation needs the partner token and answers with a payload:
 * the changed resource, and `userErrors` for every problem a person can act on (invalid values,
 * refusals of the campaign API). Inputs are checked before anything is sent to the campaign API.
 */
export type MutationUpdateCampaignArgs = {
  input: UpdateCampaignInput;
};

/**
 * An object that can be fetched again by its id alone, after Relay's Global Object Identification:
 * `node(id:)` and `nodes(ids:)` find it whatever its type. Today campaigns are nodes.
 */
export type Node = {
  /**
   * The object's global id: unique across every type of this API and stable. Opaque: store it and
   * send it back as it is, never build or take one apart (the campaign API's numbers have fields of
   * their own, such as `Campaign.ymCampaignId`).
   */
  id: Scalars['ID']['output'];
};

/**
 * One running campaign as an app shows it and acts on it: the card to draw, the kind of offer that
 * says what a user does with it (follow a link, show a code, or both), the code when everyone gets
 * the same one, and how long the offer lasts. The same for every user of an app, so answers are
 * shared by the app's callers and by HTTP caches: nothing here is handed out per user (one-off codes
 * are handed out by the offer service itself, never through this API). The fields other than `id`,
 * `ymCampaignId` and `category` are read from the campaign's record as the campaign API returns
 * it; a field its record lacks is `null`.
 */
export type Offer = {
  __typename?: 'Offer';
  /**
   * The tracked link a user follows to get the bonus (as `Campaign.acceptUrl`, the card's
   * `actionUrl`); the campaign API appends its click id to it. `null` for offers without one (most
   * `CODE_OFFLINE` offers).
   */
  acceptUrl?: Maybe<Scalars['URL']['output']>;
  /** Everything the card draws. */
  card: CampaignCard;
  /**
   * Cashback terms (as `Campaign.cashback`): points or money, and the days within which the
   * purchase is confirmed; `null` for offers that are not cashback offers.
   */
  cashback?: Maybe<CampaignCashback>;
  /** The offer's category from the shared directory; `null` when the directory does not list it. */
  category?: Maybe<Category>;
  /**
   * What the user gets (as `Campaign.discount`): a percentage, a fixed amount or a text bonus, as a
   * number to sort or filter by (`value`) and as the card's label. `label` formats in `ru-RU`
   * unless given a `locale` (the feed's `locale` applies to `card.discountLabel`).
   */
  discount: CampaignDiscount;
  /**
   * When the campaign stops and the offer leaves the feed (as `Campaign.endsAt`); `null` when it
   * runs until the partner stops it.
   */
  endsAt?: Maybe<Scalars['DateTime']['output']>;
  /**
   * The offer's global id, unique across every type as `Node.id` is: not its campaign's `id`, so a
   * normalized cache keeps the offer and the campaign apart. It names the offer's campaign too: the
   * tap-through from a card is `campaign(id:)` or `node(id:)` with this id, which answer the
   * campaign; report what a user saw with it or with `ymCampaignId`.
   */
  id: Scalars['ID']['output'];
  /** Who offers the bonus: the store's name, site and logos (as `Campaign.merchant`). */
  merchant: CampaignMerchant;
  /**
   * How many hours a user can use the offer after taking it (as `Campaign.offerDurationHours`);
   * `null` when the campaign API's default applies (two weeks). An offer taken before the campaign
   * ends stays valid for that long after it ends too.
   */
  offerDurationHours?: Maybe<Scalars['Int']['output']>;
  /**
   * Another end of the offer period set by the partner (as `Campaign.offerEndsAt`); `null` when
   * the period is `offerDurationHours` (or the default).
   */
  offerEndsAt?: Maybe<Scalars['DateTime']['output']>;
  /**
   * How the offer's code is handed out and shown (as `Campaign.pinSettings`); `null` for offers
   * without codes (`PROMO`, `BANNER`). `couponCode` is the code every user gets, for `REUSABLE`
   * offers only: a `ONE_OFF` offer's codes are handed out one per user by the offer service and
   * never appear here.
   */
  pinSettings?: Maybe<CampaignPinSettings>;
  /**
   * The kind of offer, which says what a user does with it (as `Campaign.type`): `PROMO` and
   * `BANNER`, follow `acceptUrl`; `CODE_ONLINE`, show the code (see `pinSettings`) and follow
   * `acceptUrl` to the store; `CODE_OFFLINE`, show the code at the till (text or barcode);
   * `CODE`, a code campaign of an older kind, as the code kinds; `UNKNOWN`, a kind this API does
   * not know yet: draw the card and follow `acceptUrl` when there is one.
   */
  type: CampaignType;
  /** The campaign's number in the campaign API (`Campaign.ymCampaignId`). */
  ymCampaignId: Scalars['SafeInt']['output'];
};

/** A page of the offer feed. */
export type OfferConnection = {
  __typename?: 'OfferConnection';
  /**
   * The categories that have offers in this feed (with the `platform` filter, whatever the
   * `categoryId` filter), ordered by id, for the feed's tabs.
   */
  categories: Array<OfferFeedCategory>;
  /** The offers of this page with their cursors. */
  edges: Array<OfferEdge>;
  /** The offers of this page, newest campaign first. */
  nodes: Array<Offer>;
  /** Where this page ends, to read the next one. */
  pageInfo: PageInfo;
  /** How many offers the feed has with these filters, over all pages. */
  totalCount: Scalars['SafeInt']['output'];
};

/** An offer of the feed with its cursor. */
export type OfferEdge = {
  __typename?: 'OfferEdge';
  /** Pass it as `after` to read the offers after this one. */
  cursor: Scalars['String']['output'];
  /** The offer. */
  node: Offer;
};

/** A category that has offers in the feed: a tab of the feed screen. */
export type OfferFeedCategory = {
  __typename?: 'OfferFeedCategory';
  /** The category. */
  category: Category;
  /** How many offers of the feed are in this category. */
  offerCount: Scalars['SafeInt']['output'];
};

/**
 * Where a page of a connection starts and ends, for cursor-based pagination.
 * Pass `endCursor` as `after` to read the next page.
 */
export type PageInfo = {
  __typename?: 'PageInfo';
  /**
   * The cursor of the last item of this page; pass it as `after` to read the next page.
   * `null` when the page is empty.
   */
  endCursor?: Maybe<Scalars['String']['output']>;
  /** Whether there are more items after this page. */
  hasNextPage: Scalars['Boolean']['output'];
  /** Whether there are items before this page. */
  hasPreviousPage: Scalars['Boolean']['output'];
  /** The cursor of the first item of this page; `null` when the page is empty. */
  startCursor?: Maybe<Scalars['String']['output']>;
};

/** A promo code of a one-off code campaign. */
export type Pin = {
  __typename?: 'Pin';
  /** The code as it was uploaded (codes are matched case-insensitively). */
  code: Scalars['String']['output'];
  /** Whether the code is unused, handed out to a user, or used. */
  status: PinStatus;
};

/** A page of promo codes. */
export type PinConnection = {
  __typename?: 'PinConnection';
  /** The codes of this page with their cursors. */
  edges: Array<PinEdge>;
  /** The codes of this page, in upload order. */
  nodes: Array<Pin>;
  /** Where this page starts and ends. */
  pageInfo: PageInfo;
  /** How many codes the campaign has in the asked status. */
  totalCount: Scalars['SafeInt']['output'];
};

/** How many promo codes a campaign has. */
export type PinCounts = {
  __typename?: 'PinCounts';
  /** All codes ever uploaded. */
  total: Scalars['SafeInt']['output'];
  /** Codes not yet handed out. */
  unused: Scalars['SafeInt']['output'];
};

/** How a promo code is shown to the user. */
export type PinDisplayType =
  /** As an EAN-13 barcode: exactly 13 digits. */
  | 'ean_13'
  /** As text: up to 255 characters. */
  | 'text'
  /** A value this API does not know yet. */
  | 'unknown';

/** How a promo code is shown to the user (`PinDisplayType` without `UNKNOWN`). */
export type PinDisplayTypeInput =
  /** As an EAN-13 barcode: exactly 13 digits. */
  | 'ean_13'
  /** As text: up to 255 characters. */
  | 'text';

/** A promo code in a page, with its cursor. */
export type PinEdge = {
  __typename?: 'PinEdge';
  /**
   * An opaque cursor; pass it as `after` to read the codes after this one (same campaign and
   * `status` only).
   */
  cursor: Scalars['String']['output'];
  /** The code. */
  node: Pin;
};

/** Where a promo code is in its life. */
export type PinStatus =
  /** Handed out to a user who has not used it yet. */
  | 'accepted_by_user'
  /** Uploaded and not yet handed out. */
  | 'new_unused'
  /** Used: a lead with this code was reported. */
  | 'redeem_received';

/** How a code campaign hands out codes. */
export type PinType =
  /** Each user gets their own code from the codes uploaded with `addPins`. */
  | 'one-off'
  /** All users get the same code, set in `couponCode`. */
  | 'reusable'
  /** A value this API does not know yet. */
  | 'unknown';

/** How a code campaign hands out codes (`PinType` without `UNKNOWN`). */
export type PinTypeInput =
  /** Each user gets their own code from the codes uploaded with `addPins`. */
  | 'one-off'
  /** All users get the same code, set in `couponCode`. */
  | 'reusable';

/** A kind of device an offer is shown on. */
export type Platform =
  /** Desktop computers. */
  | 'desktop'
  /** Smartphones and tablets. */
  | 'mobile'
  /** A value this API does not know yet. */
  | 'unknown';

/** A kind of device an offer is shown on (`Platform` without `UNKNOWN`). */
export type PlatformInput =
  /** Desktop computers. */
  | 'desktop'
  /** Smartphones and tablets. */
  | 'mobile';

/**
 * The root of every read. Every field needs the partner token (`Authorization: Bearer <token>`):
 * a partner sees only its own campaigns. `offerFeed` and `categories` also answer a mobile app's
 * public key (`X-App-Key`), which reaches nothing else. Every field that reads the campaign API is
 * nullable: when one read fails, that field is `null` with its error in `errors`, and the other
 * fields of the same query still answer.
 */
export type Query = {
  __typename?: 'Query';
  /** One campaign of the calling partner, or `null` when the partner has no campaign with this id. */
  campaign?: Maybe<Campaign>;
  /**
   * The calling partner's campaigns, oldest first (by id), a page at a time. Pages follow ids, so
   * campaigns created, started or stopped between pages are neither skipped nor repeated. `null`
   * (with the error in `errors`) when the campaign API cannot be read or an argument is refused.
   */
  campaigns?: Maybe<CampaignConnection>;
  /**
   * Several campaigns by id, in the order asked. An id the partner has no campaign with gives
   * `null` at its place; an id asked twice is read once. At most 100 ids. The whole list is `null`
   * (with the error in `errors`) only when the argument is refused.
   */
  campaignsByIds?: Maybe<Array<Maybe<Campaign>>>;
  /**
   * The whole category directory, ordered by id. Cached and shared by all partners, so it is cheap
   * to ask for on every screen. `null` (with the error in `errors`) when the directory is not
   * cached and the campaign API cannot be read.
   */
  categories?: Maybe<Array<Category>>;
  /** One category of the directory, or `null` when there is no category with this id. */
  category?: Maybe<Category>;
  /**
   * The object with this global id (`Node.id`), or `null` when there is none the caller may see
   * (another partner's campaign, an id this API never gave). Only global ids are read here: the
   * campaign API's bare numbers name no type. An `Offer.id` answers the offer's campaign (the
   * tap-through from a card).
   */
  node?: Maybe<Node>;
  /**
   * The objects with these global ids, in the order asked: `null` at the place of an id that names
   * nothing the caller may see; an id asked twice is read once. At most 100 ids. The whole list is
   * `null` (with the error in `errors`) only when the argument is refused.
   */
  nodes?: Maybe<Array<Maybe<Node>>>;
  /**
   * The public offer feed for mobile apps: the cards of the running (`STARTED`) campaigns of the
   * partners an app key reads for (merged when it reads for several), newest campaign first, a page
   * at a time. Apps send their app key as the `X-App-Key` header; a partner token may read its own
   * feed too. Served from a shared cache rebuilt at most once per freshness window (30 s by default)
   * and at once after a change made through this API; while the campaign API fails, the last good
   * feed is served and `extensions.feed.stale` says so; only when there is no feed at all is the
   * field `null` with its error (the rest of the query still answers). Filters and pages are cut from the cached
   * feed, so asking for them costs no backend call.
   */
  offerFeed?: Maybe<OfferConnection>;
};


/**
 * The root of every read. Every field needs the partner token (`Authorization: Bearer <token>`):
 * a partner sees only its own campaigns. `offerFeed` and `categories` also answer a mobile app's
 * public key (`X-App-Key`), which reaches nothing else. Every field that reads the campaign API is
 * nullable: when one read fails, that field is `null` with its error in `errors`, and the other
 * fields of the same query still answer.
 */
export type QueryCampaignArgs = {
  id: Scalars['ID']['input'];
};


/**
 * The root of every read. Every field needs the partner token (`Authorization: Bearer <token>`):
 * a partner sees only its own campaigns. `offerFeed` and `categories` also answer a mobile app's
 * public key (`X-App-Key`), which reaches nothing else. Every field that reads the campaign API is
 * nullable: when one read fails, that field is `null` with its error in `errors`, and the other
 * fields of the same query still answer.
 */
export type QueryCampaignsArgs = {
  after?: InputMaybe<Scalars['String']['input']>;
  first?: InputMaybe<Scalars['Int']['input']>;
  status?: InputMaybe<CampaignStatus>;
  withStatus?: InputMaybe<CampaignStatusInput>;
};


/**
 * The root of every read. Every field needs the partner token (`Authorization: Bearer <token>`):
 * a partner sees only its own campaigns. `offerFeed` and `categories` also answer a mobile app's
 * public key (`X-App-Key`), which reaches nothing else. Every field that reads the campaign API is
 * nullable: when one read fails, that field is `null` with its error in `errors`, and the other
 * fields of the same query still answer.
 */
export type QueryCampaignsByIdsArgs = {
  ids: Array<Scalars['ID']['input']>;
};


/**
 * The root of every read. Every field needs the partner token (`Authorization: Bearer <token>`):
 * a partner sees only its own campaigns. `offerFeed` and `categories` also answer a mobile app's
 * public key (`X-App-Key`), which reaches nothing else. Every field that reads the campaign API is
 * nullable: when one read fails, that field is `null` with its error in `errors`, and the other
 * fields of the same query still answer.
 */
export type QueryCategoryArgs = {
  id: Scalars['ID']['input'];
};


/**
 * The root of every read. Every field needs the partner token (`Authorization: Bearer <token>`):
 * a partner sees only its own campaigns. `offerFeed` and `categories` also answer a mobile app's
 * public key (`X-App-Key`), which reaches nothing else. Every field that reads the campaign API is
 * nullable: when one read fails, that field is `null` with its error in `errors`, and the other
 * fields of the same query still answer.
 */
export type QueryNodeArgs = {
  id: Scalars['ID']['input'];
};


/**
 * The root of every read. Every field needs the partner token (`Authorization: Bearer <token>`):
 * a partner sees only its own campaigns. `offerFeed` and `categories` also answer a mobile app's
 * public key (`X-App-Key`), which reaches nothing else. Every field that reads the campaign API is
 * nullable: when one read fails, that field is `null` with its error in `errors`, and the other
 * fields of the same query still answer.
 */
export type QueryNodesArgs = {
  ids: Array<Scalars['ID']['input']>;
};


/**
 * The root of every read. Every field needs the partner token (`Authorization: Bearer <token>`):
 * a partner sees only its own campaigns. `offerFeed` and `categories` also answer a mobile app's
 * public key (`X-App-Key`), which reaches nothing else. Every field that reads the campaign API is
 * nullable: when one read fails, that field is `null` with its error in `errors`, and the other
 * fields of the same query still answer.
 */
export type QueryOfferFeedArgs = {
  after?: InputMaybe<Scalars['String']['input']>;
  categoryId?: InputMaybe<Scalars['ID']['input']>;
  first?: InputMaybe<Scalars['Int']['input']>;
  locale?: InputMaybe<Scalars['String']['input']>;
  platform?: InputMaybe<PlatformInput>;
};

/**
 * The status of a lead. A lead moves from `USED` to `APPROVED` or `DECLINED`, and from `APPROVED`
 * to `DECLINED` (a return).
 */
export type RedeemStatus =
  /** The partner will pay the fee for this lead. */
  | 'approved'
  /** The partner will not pay for this lead (for example, the order was returned). */
  | 'declined'
  /** The offer was used; whether the partner pays is not decided yet. */
  | 'used';

/**
 * A lead to report: a user used an offer of a campaign. Every string field holds plain text, as
 * `CreateCampaignInput` describes it, on one line; text that is not is refused before anything is
 * sent to the campaign API.
 */
export type ReportLeadInput = {
  /** What the bonus was spent on. */
  bonusDescription?: InputMaybe<BonusDescriptionInput>;
  /** The fee for this lead, with at most two decimals, such as `"150.00"`. */
  campaignFee: Scalars['Decimal']['input'];
  /** The campaign (`Campaign.id`, or its `ymCampaignId` as digits). */
  campaignId: Scalars['ID']['input'];
  /** The cashback amount, with at most two decimals. */
  cashbackAmount?: InputMaybe<Scalars['Decimal']['input']>;
  /**
   * The click id the campaign API appended to `acceptUrl`. Required for `PROMO` and `BANNER`
   * campaigns and for code campaigns with `pinType` `REUSABLE`.
   */
  clickId?: InputMaybe<Scalars['String']['input']>;
  /** The fee's currency; roubles when omitted. */
  feeCurrency?: InputMaybe<CurrencyCodeInput>;
  /** The order amount, with at most two decimals. */
  orderAmount?: InputMaybe<Scalars['Decimal']['input']>;
  /** The order amount's currency; roubles when omitted. */
  orderCurrency?: InputMaybe<CurrencyCodeInput>;
  /**
   * The promo code the user used. Required for one-off code campaigns (`CODE_ONLINE` or
   * `CODE_OFFLINE` with `pinType` `ONE_OFF`); matched case-insensitively.
   */
  pinContent?: InputMaybe<Scalars['String']['input']>;
  /** The lead's status; `USED` when omitted. */
  redeemStatus?: InputMaybe<RedeemStatus>;
  /** When the lead was made, with an offset, such as `2026-03-01T12:00:00+03:00`. */
  redeemTime?: InputMaybe<Scalars['DateTime']['input']>;
  /** Where the lead was made, free text. */
  sceneRedeem?: InputMaybe<Scalars['String']['input']>;
  /**
   * The store's order id, 1 to 36 characters, unique within the campaign. Reporting it again
   * with another `redeemStatus` moves the lead on (`USED` → `APPROVED` or `DECLINED`,
   * `APPROVED` → `DECLINED`); the same report twice changes nothing. A repeated report needs only
   * the campaign, the transaction, its code or click, the fee and the new status: an optional field
   * left out keeps the first report's value. A field sent again must have the same value as the
   * first time (the same code or click, fee, amounts, currencies, time, scene, view and bonus
   * description; an amount or time written another way counts as the same): any other difference
   * is refused with `INCORRECT_DATA` naming each differing field.
   */
  transactionId: Scalars['String']['input'];
  /** The view id the campaign API appended to `acceptUrl`. */
  viewId?: InputMaybe<Scalars['String']['input']>;
};

/** The result of `reportLead`. */
export type ReportLeadPayload = {
  __typename?: 'ReportLeadPayload';
  /** The reported lead; `null` when the report was refused (see `userErrors`). */
  lead?: Maybe<Lead>;
  /**
   * Why the report was refused: invalid values, a missing `pinContent` or `clickId` for the
   * campaign's kind, an unknown code or click, a `transactionId` reported before with other values
   * or a status it cannot move to, or an unknown campaign.
   */
  userErrors: Array<UserError>;
};

/** The result of `startCampaign`. */
export type StartCampaignPayload = {
  __typename?: 'StartCampaignPayload';
  /**
   * The campaign with its current status: `STARTED` on success, the status it stayed in otherwise.
   * `null` only when the partner has no campaign with this id.
   */
  campaign?: Maybe<Campaign>;
  /**
   * Why the campaign did not start (`FAIL_PIN`, `FAIL_MODERATOR`, `FAIL_FINISHED`,
   * `CAMPAIGN_NOT_FOUND`); empty on success.
   */
  userErrors: Array<UserError>;
};

/** The result of `stopCampaign`. */
export type StopCampaignPayload = {
  __typename?: 'StopCampaignPayload';
  /**
   * The campaign with its current status: `PAUSED` on success, the status it stayed in otherwise.
   * `null` when the partner has no campaign with this id, or when it belongs to another partner
   * (`FAIL_MERCHANT`).
   */
  campaign?: Maybe<Campaign>;
  /** Why the campaign did not stop (`FAIL_FINISHED`, `FAIL_MERCHANT`, `CAMPAIGN_NOT_FOUND`); empty on success. */
  userErrors: Array<UserError>;
};

/**
 * Live updates. Served over GraphQL over WebSocket (the `graphql-ws` protocol, at `/graphql`, what
 * Apollo Client's `GraphQLWsLink` and Apollo Sandbox speak) and over Server-Sent Events (the
 * `graphql-sse` protocol, at `/graphql/stream`, for clients behind proxies that drop WebSockets).
 * The partner token goes in the `connection_init` payload `{ "authorization": "Bearer <token>" }`
 * or in the `Authorization` header; a partner only ever receives events about its own campaigns.
 */
export type Subscription = {
  __typename?: 'Subscription';
  /**
   * An event each time one of the calling partner's campaigns changes status: approved or declined
   * by the moderator, started by its schedule, out of promo codes (`PIN_REQUIRED`), `FINISHED`, or
   * started and stopped by anyone. Changes made through this API's mutations arrive at once; other
   * changes are found by reading the campaign API every few seconds (`SUBSCRIPTION_POLL_INTERVAL_MS`),
   * one read per partner however many watch. Select `campaign { id status }` so a normalized client
   * cache updates the campaign in place. While the campaign API is unreachable no event is sent
   * (nothing is guessed); changes that happened meanwhile arrive once it answers again.
   */
  campaignChanged: CampaignStatusEvent;
};


/**
 * Live updates. Served over GraphQL over WebSocket (the `graphql-ws` protocol, at `/graphql`, what
 * Apollo Client's `GraphQLWsLink` and Apollo Sandbox speak) and over Server-Sent Events (the
 * `graphql-sse` protocol, at `/graphql/stream`, for clients behind proxies that drop WebSockets).
 * The partner token goes in the `connection_init` payload `{ "authorization": "Bearer <token>" }`
 * or in the `Authorization` header; a partner only ever receives events about its own campaigns.
 */
export type SubscriptionCampaignChangedArgs = {
  ids?: InputMaybe<Array<Scalars['ID']['input']>>;
};

/** Changes to how the offer looks: the fields given change. */
export type UpdateCampaignAppearanceInput = {
  /** How a banner is displayed; required for `BANNER`. */
  appearanceType?: InputMaybe<AppearanceTypeInput>;
  /** The card's background colour, `#RGB` or `#RRGGBB`; not light (relative luminance at most 0.5). Cannot be `null`. */
  backgroundColor?: InputMaybe<Scalars['HexColorCode']['input']>;
  /**
   * Link to a 500×500 px JPG or PNG of at most 300 KB; required for a `BANNER` with `IMAGE_BANNER`.
   * `null`: an image of the offer's category is shown.
   */
  backgroundImageUrl?: InputMaybe<Scalars['URL']['input']>;
  /** The text colour, `#RGB` or `#RRGGBB`, with a WCAG contrast ratio of at least 4.5:1 against `backgroundColor`. Cannot be `null`. */
  fontColor?: InputMaybe<Scalars['HexColorCode']['input']>;
};

/** Changes to what the user gets: the fields given change. */
export type UpdateCampaignDiscountInput = {
  /** The discount: a percentage above 0 and at most 100 for `PERCENT` (`"15"`), a decimal amount for `FIX` (`"500"`, `"9.99"`), or a Russian text for `TEXT`; at most 30 characters. Cannot be `null`. */
  amount?: InputMaybe<Scalars['String']['input']>;
  /** The currency of a `FIX` discount; `USD` only with `FIX`. `null`: roubles. */
  currency?: InputMaybe<CurrencyCodeInput>;
  /** How the discount is expressed. Cannot be `null`. */
  type?: InputMaybe<DiscountTypeInput>;
};

/**
 * Changes to what the partner pays per lead: the fields given change; giving one form replaces
 * the other, and the campaign must keep one.
 */
export type UpdateCampaignFeeInput = {
  /** The fee per lead; replaces `min` and `max`. */
  amount?: InputMaybe<Scalars['Decimal']['input']>;
  /** The fee's currency. `null`: roubles. */
  currency?: InputMaybe<CurrencyCodeInput>;
  /** The highest fee per lead, with `min`. The pair replaces `amount`. */
  max?: InputMaybe<Scalars['Decimal']['input']>;
  /** The lowest fee per lead, with `max`; at most `max`. The pair replaces `amount`. */
  min?: InputMaybe<Scalars['Decimal']['input']>;
  /** Whether the fee is a share of the order or a fixed amount. Cannot be `null`. */
  type?: InputMaybe<FeeTypeInput>;
};

/**
 * Changes to a campaign, found by its `id`. Fields carry the names and types of `Campaign`'s
 * fields, grouped as `Campaign` groups them: a form filled from a query is sent back as it is (the
 * read-only fields left out), and a field that holds the campaign's current value changes nothing.
 *
 * Only the fields given change, at every level: a field left out keeps its value (in a group too:
 * `merchant: { name: "…" }` changes the name alone), and `null` clears an optional field (what a
 * cleared field means is said at each one). Fields every campaign has (`categoryId`, `type`,
 * `description`, `conditions`, `merchant`, `appearance`'s colours, `discount`'s type and amount,
 * `fee.type`) cannot be `null`. Giving one fee form replaces the other (`fee.amount`, or `fee.min`
 * with `fee.max`); `pinSettings.pinType` `ONE_OFF` drops `pinSettings.couponCode`; a `type` without
 * codes (`PROMO`, `BANNER`) drops `pinSettings`. The campaign as it is after the change must
 * satisfy the rules of `CreateCampaignInput`; a problem with a field not given (such as
 * `acceptUrl` when the type becomes `PROMO`) is reported on that field.
 */
export type UpdateCampaignInput = {
  /** The tracked link a user follows to get the bonus, an absolute http(s) URL; required for `PROMO`, `BANNER` and `CODE_ONLINE`. */
  acceptUrl?: InputMaybe<Scalars['URL']['input']>;
  /** How the offer looks: the fields given change. Cannot be `null`. */
  appearance?: InputMaybe<UpdateCampaignAppearanceInput>;
  /** Cashback settings: the fields given change. `null`: not a cashback offer. */
  cashback?: InputMaybe<CampaignCashbackInput>;
  /** The category (`Category.id`) from the `categories` directory. Cannot be `null`. */
  categoryId?: InputMaybe<Scalars['ID']['input']>;
  /**
   * The conditions for getting the bonus, in Russian, 1 to 512 characters; the one field that may
   * hold line breaks (`\n`), shown as paragraphs. Cannot be `null`.
   */
  conditions?: InputMaybe<Scalars['String']['input']>;
  /** The offer in one line (no line breaks), in Russian, 1 to 90 characters. Cannot be `null`. */
  description?: InputMaybe<Scalars['String']['input']>;
  /** What the user gets: the fields given change. Cannot be `null`. */
  discount?: InputMaybe<UpdateCampaignDiscountInput>;
  /** When the campaign stops being shown and becomes `FINISHED`, with an offset, after `startsAt` and in the future. `null`: it runs until stopped. A `FINISHED` campaign can be changed only together with an `endsAt` in the future (`FAIL_FINISHED` otherwise). */
  endsAt?: InputMaybe<Scalars['DateTime']['input']>;
  /** What the partner pays per lead: the fields given change. Cannot be `null`. */
  fee?: InputMaybe<UpdateCampaignFeeInput>;
  /** The campaign to change (`Campaign.id`, or its `ymCampaignId` as digits). */
  id: Scalars['ID']['input'];
  /** Who offers the bonus: the fields given change. Cannot be `null`. */
  merchant?: InputMaybe<UpdateCampaignMerchantInput>;
  /** Hours a user can use an offer they saved, 1 to 100000. `null`: the campaign API's default. */
  offerDurationHours?: InputMaybe<Scalars['Int']['input']>;
  /** Another end of the offer period, with an offset. `null`: the default period. */
  offerEndsAt?: InputMaybe<Scalars['DateTime']['input']>;
  /**
   * How promo codes are handed out: the fields given change. `null` clears them all (a campaign
   * without codes). Cannot change (nor be `null`) while the campaign holds one-off codes.
   */
  pinSettings?: InputMaybe<UpdateCampaignPinSettingsInput>;
  /** When the campaign starts by schedule, once approved, with an offset. `null`: no schedule (an aggregator's campaign starts at once, a store's campaign on approval). */
  startsAt?: InputMaybe<Scalars['DateTime']['input']>;
  /** The devices to show the offer on. `null`: all devices. */
  supportedPlatforms?: InputMaybe<Array<PlatformInput>>;
  /** The kind of offer. Cannot be `null`. */
  type?: InputMaybe<CampaignTypeInput>;
};

/** Changes to who offers the bonus: the fields given change, none can be `null`. */
export type UpdateCampaignMerchantInput = {
  /** The store's site as a bare host name, such as `shop.example.ru`: no `https://`, no `www.`, no trailing slash. */
  domain?: InputMaybe<Scalars['String']['input']>;
  /** Link to a round PNG logo with a transparent background, 240×240 px, at most 100 KB; an absolute http(s) URL of at most 300 characters. */
  logoPngUrl?: InputMaybe<Scalars['URL']['input']>;
  /** Link to a round SVG logo, 80×80 px with a viewBox, at most 100 KB; an absolute http(s) URL of at most 300 characters. */
  logoSvgUrl?: InputMaybe<Scalars['URL']['input']>;
  /** The store's name as users see it, 1 to 300 characters. */
  name?: InputMaybe<Scalars['String']['input']>;
};

/** The result of `updateCampaign`. */
export type UpdateCampaignPayload = {
  __typename?: 'UpdateCampaignPayload';
  /**
   * The changed campaign, back in `MODERATION`, read after the change; the campaign as it is (in
   * its status) when the update changed nothing; `null` when the change was refused (nothing was
   * changed then).
   */
  campaign?: Maybe<Campaign>;
  /** Every problem with the input, each naming its field; empty on success. */
  userErrors: Array<UserError>;
};

/**
 * Changes to how a code campaign hands out promo codes: the fields given change. `pinType` and
 * `displayType` cannot change (nor be `null`) while the campaign holds one-off codes.
 */
export type UpdateCampaignPinSettingsInput = {
  /** The code every user gets; required when `pinType` is `REUSABLE`, refused for `ONE_OFF`. Must fit `displayType`. */
  couponCode?: InputMaybe<Scalars['String']['input']>;
  /** How codes are shown; required for `CODE_ONLINE` and `CODE_OFFLINE`. */
  displayType?: InputMaybe<PinDisplayTypeInput>;
  /** One code per user (`ONE_OFF`) or one code for everyone (`REUSABLE`); required for `CODE_ONLINE` and `CODE_OFFLINE`. */
  pinType?: InputMaybe<PinTypeInput>;
};

/**
 * A problem with the input of a mutation, or a refusal by the campaign API, that a person can
 * act on. Mutations return these in `userErrors` instead of failing, so a form can show every
 * problem next to its field at once.
 */
export type UserError = {
  __typename?: 'UserError';
  /**
   * A stable code to branch on in code: what kind of problem it is (`REQUIRED`, `TOO_LONG`,
   * `FORMAT`, `OUT_OF_RANGE`, `NOT_ALLOWED`, `NOT_ALLOWED_NOW`, `NOT_FOUND`) for the checks this API
   * makes before calling the campaign API, or the campaign API's own refusal.
   */
  code: UserErrorCode;
  /**
   * The path to the input field the problem is about, starting at the argument name, such as
   * `["input", "backgroundColor"]` or `["input", "pins", "17"]` (list items by index).
   * `null` when the problem is not about one field.
   */
  field?: Maybe<Array<Scalars['String']['output']>>;
  /**
   * What is wrong, stating the rule and what was received, written for the person filling the form
   * in this API's words: its field names, mutations and enum values (`PERCENT`, `USD`), also when
   * the campaign API refused. A quoted received value is cut at 40 characters, ending with `…`.
   */
  message: Scalars['String']['output'];
};

/** Why a mutation could not do (all of) what was asked. */
export type UserErrorCode =
  /**
   * The campaign API answered in the middle of a multi-step mutation with something this API cannot
   * read. What was done before is reported in the payload.
   */
  | 'backendBadResponse'
  /**
   * The campaign API could not be reached in the middle of a multi-step mutation (see `addPins`).
   * What was done before is reported in the payload; retry the rest.
   */
  | 'backendUnavailable'
  /** No campaign with this id belongs to the calling partner. */
  | 'campaignNotFound'
  /**
   * The campaign is finished (archived); it cannot be started or stopped any more, and
   * `updateCampaign` changes it only together with a `campaignEnd` in the future.
   */
  | 'failFinished'
  /** Only the partner that created the campaign may stop it. */
  | 'failMerchant'
  /** The campaign awaits moderation, or was declined and must be updated first. */
  | 'failModerator'
  /**
   * The campaign hands out one-off promo codes and has none left unused; upload some with `addPins`
   * before starting it.
   */
  | 'failPin'
  /**
   * A value is not in the form the field takes: a colour, URL, timestamp, decimal, host name, code
   * or id written otherwise, text that is not plain text or not in Russian where Russian is asked.
   */
  | 'format'
  /**
   * The campaign API refused a value (`field` names it): its own check, after this API's checks
   * passed. `message` says why in this API's words.
   */
  | 'incorrectData'
  /**
   * A value the other fields rule out: both fee forms, `USD` for a discount that is not `FIX`, a
   * coupon code for `ONE_OFF` pins, pins for a campaign that takes none.
   */
  | 'notAllowed'
  /**
   * A change the campaign's current state rules out, such as changing how codes are handed out
   * while the campaign holds one-off codes.
   */
  | 'notAllowedNow'
  /** A value names something that does not exist, such as a `categoryId` the directory does not list. */
  | 'notFound'
  /**
   * A value is beyond what is allowed, alone or against another field: a number or percentage
   * out of its bounds, `fee.min` above `fee.max`, `endsAt` not after `startsAt`, a background too
   * light or text with too little contrast against it.
   */
  | 'outOfRange'
  /**
   * A campaign with this `partnerCampaignId` already exists with another `discountAmount`.
   * Create it with a new `partnerCampaignId`, or keep the discount amount.
   */
  | 'repeatCampaignData'
  /**
   * A value is missing: a required field left out, empty or blank, `null` for a field that cannot
   * be cleared, or a field the others make necessary (`acceptUrl` for `PROMO`, both `fee.min` and
   * `fee.max`).
   */
  | 'required'
  /**
   * Text or a list is longer than the field takes (`description` over 90 characters, more pins
   * than one call takes).
   */
  | 'tooLong'
  /**
   * The campaign API refused with a code this API does not know yet, or with none at all (an HTTP
   * status alone, as a proxy in front of it may answer); `message` says what it answered.
   */
  | 'unknown';



export type ResolverTypeWrapper<T> = Promise<T> | T;


export type ResolverWithResolve<TResult, TParent, TContext, TArgs> = {
  resolve: ResolverFn<TResult, TParent, TContext, TArgs>;
};
export type Resolver<TResult, TParent = Record<PropertyKey, never>, TContext = Record<PropertyKey, never>, TArgs = Record<PropertyKey, never>> = ResolverFn<TResult, TParent, TContext, TArgs> | ResolverWithResolve<TResult, TParent, TContext, TArgs>;

export type ResolverFn<TResult, TParent, TContext, TArgs> = (
  parent: TParent,
  args: TArgs,
  context: TContext,
  info: GraphQLResolveInfo
) => Promise<TResult> | TResult;

export type SubscriptionSubscribeFn<TResult, TParent, TContext, TArgs> = (
  parent: TParent,
  args: TArgs,
  context: TContext,
  info: GraphQLResolveInfo
) => AsyncIterable<TResult> | Promise<AsyncIterable<TResult>>;

export type SubscriptionResolveFn<TResult, TParent, TContext, TArgs> = (
  parent: TParent,
  args: TArgs,
  context: TContext,
  info: GraphQLResolveInfo
) => TResult | Promise<TResult>;

export interface SubscriptionSubscriberObject<TResult, TKey extends string, TParent, TContext, TArgs> {
  subscribe: SubscriptionSubscribeFn<{ [key in TKey]: TResult }, TParent, TContext, TArgs>;
  resolve?: SubscriptionResolveFn<TResult, { [key in TKey]: TResult }, TContext, TArgs>;
}

export interface SubscriptionResolverObject<TResult, TParent, TContext, TArgs> {
  subscribe: SubscriptionSubscribeFn<any, TParent, TContext, TArgs>;
  resolve: SubscriptionResolveFn<TResult, any, TContext, TArgs>;
}

export type SubscriptionObject<TResult, TKey extends string, TParent, TContext, TArgs> =
  | SubscriptionSubscriberObject<TResult, TKey, TParent, TContext, TArgs>
  | SubscriptionResolverObject<TResult, TParent, TContext, TArgs>;

export type SubscriptionResolver<TResult, TKey extends string, TParent = Record<PropertyKey, never>, TContext = Record<PropertyKey, never>, TArgs = Record<PropertyKey, never>> =
  | ((...args: any[]) => SubscriptionObject<TResult, TKey, TParent, TContext, TArgs>)
  | SubscriptionObject<TResult, TKey, TParent, TContext, TArgs>;

export type TypeResolveFn<TTypes, TParent = Record<PropertyKey, never>, TContext = Record<PropertyKey, never>> = (
  parent: TParent,
  context: TContext,
  info: GraphQLResolveInfo
) => Maybe<TTypes> | Promise<Maybe<TTypes>>;

export type IsTypeOfResolverFn<T = Record<PropertyKey, never>, TContext = Record<PropertyKey, never>> = (obj: T, context: TContext, info: GraphQLResolveInfo) => boolean | Promise<boolean>;

export type NextResolverFn<T> = () => Promise<T>;

export type DirectiveResolverFn<TResult = Record<PropertyKey, never>, TParent = Record<PropertyKey, never>, TContext = Record<PropertyKey, never>, TArgs = Record<PropertyKey, never>> = (
  next: NextResolverFn<TResult>,
  parent: TParent,
  args: TArgs,
  context: TContext,
  info: GraphQLResolveInfo
) => TResult | Promise<TResult>;




/** Mapping of interface types */
export type ResolversInterfaceTypes<_RefType extends Record<string, unknown>> = {
  Node: ( CampaignRef );
};

/** Mapping between all available schema types and the resolvers types */
export type ResolversTypes = {
  AddPinsInput: AddPinsInput;
  AddPinsPayload: ResolverTypeWrapper<Omit<AddPinsPayload, 'campaign' | 'userErrors'> & { campaign?: Maybe<ResolversTypes['Campaign']>, userErrors: Array<ResolversTypes['UserError']> }>;
  AppearanceType: AppearanceType;
  AppearanceTypeInput: AppearanceTypeInput;
  BonusDescriptionInput: BonusDescriptionInput;
  Boolean: ResolverTypeWrapper<Scalars['Boolean']['output']>;
  CacheControlScope: CacheControlScope;
  Campaign: ResolverTypeWrapper<CampaignRef>;
  CampaignAppearance: ResolverTypeWrapper<CampaignDetails>;
  CampaignAppearanceInput: CampaignAppearanceInput;
  CampaignCard: ResolverTypeWrapper<CardModel>;
  CampaignCashback: ResolverTypeWrapper<CampaignDetails>;
  CampaignCashbackInput: CampaignCashbackInput;
  CampaignConnection: ResolverTypeWrapper<CampaignPage>;
  CampaignDiscount: ResolverTypeWrapper<CampaignDetails>;
  CampaignDiscountInput: CampaignDiscountInput;
  CampaignEdge: ResolverTypeWrapper<Omit<CampaignEdge, 'node'> & { node?: Maybe<ResolversTypes['Campaign']> }>;
  CampaignFee: ResolverTypeWrapper<CampaignDetails>;
  CampaignFeeInput: CampaignFeeInput;
  CampaignMerchant: ResolverTypeWrapper<CampaignDetails>;
  CampaignMerchantInput: CampaignMerchantInput;
  CampaignPinSettings: ResolverTypeWrapper<CampaignDetails>;
  CampaignPinSettingsInput: CampaignPinSettingsInput;
  CampaignStats: ResolverTypeWrapper<CampaignStatsModel>;
  CampaignStatus: CampaignStatus;
  CampaignStatusEvent: ResolverTypeWrapper<StatusEvent>;
  CampaignStatusInput: CampaignStatusInput;
  CampaignType: CampaignType;
  CampaignTypeInput: CampaignTypeInput;
  CashbackType: CashbackType;
  CashbackTypeInput: CashbackTypeInput;
  Category: ResolverTypeWrapper<CategoryModel>;
  CreateCampaignInput: CreateCampaignInput;
  CreateCampaignPayload: ResolverTypeWrapper<Omit<CreateCampaignPayload, 'campaign' | 'userErrors'> & { campaign?: Maybe<ResolversTypes['Campaign']>, userErrors: Array<ResolversTypes['UserError']> }>;
  CurrencyCode: CurrencyCode;
  CurrencyCodeInput: CurrencyCodeInput;
  DateTime: ResolverTypeWrapper<Scalars['DateTime']['output']>;
  Decimal: ResolverTypeWrapper<Scalars['Decimal']['output']>;
  DiscountType: DiscountType;
  DiscountTypeInput: DiscountTypeInput;
  FeeType: FeeType;
  FeeTypeInput: FeeTypeInput;
  Float: ResolverTypeWrapper<Scalars['Float']['output']>;
  HexColorCode: ResolverTypeWrapper<Scalars['HexColorCode']['output']>;
  ID: ResolverTypeWrapper<Scalars['ID']['output']>;
  Int: ResolverTypeWrapper<Scalars['Int']['output']>;
  Lead: ResolverTypeWrapper<LeadModel>;
  LeadCounts: ResolverTypeWrapper<LeadCountsModel>;
  LeadState: LeadState;
  Mutation: ResolverTypeWrapper<Record<PropertyKey, never>>;
  Node: ResolverTypeWrapper<ResolversInterfaceTypes<ResolversTypes>['Node']>;
  Offer: ResolverTypeWrapper<OfferModel>;
  OfferConnection: ResolverTypeWrapper<OfferPage>;
  OfferEdge: ResolverTypeWrapper<Omit<OfferEdge, 'node'> & { node: ResolversTypes['Offer'] }>;
  OfferFeedCategory: ResolverTypeWrapper<OfferFeedCategoryModel>;
  PageInfo: ResolverTypeWrapper<PageInfo>;
  Pin: ResolverTypeWrapper<PinModel>;
  PinConnection: ResolverTypeWrapper<PinPage>;
  PinCounts: ResolverTypeWrapper<PinCountsModel>;
  PinDisplayType: PinDisplayType;
  PinDisplayTypeInput: PinDisplayTypeInput;
  PinEdge: ResolverTypeWrapper<Omit<PinEdge, 'node'> & { node: ResolversTypes['Pin'] }>;
  PinStatus: PinStatus;
  PinType: PinType;
  PinTypeInput: PinTypeInput;
  Platform: Platform;
  PlatformInput: PlatformInput;
  Query: ResolverTypeWrapper<Record<PropertyKey, never>>;
  RedeemStatus: RedeemStatus;
  ReportLeadInput: ReportLeadInput;
  ReportLeadPayload: ResolverTypeWrapper<Omit<ReportLeadPayload, 'lead' | 'userErrors'> & { lead?: Maybe<ResolversTypes['Lead']>, userErrors: Array<ResolversTypes['UserError']> }>;
  SafeInt: ResolverTypeWrapper<Scalars['SafeInt']['output']>;
  StartCampaignPayload: ResolverTypeWrapper<Omit<StartCampaignPayload, 'campaign' | 'userErrors'> & { campaign?: Maybe<ResolversTypes['Campaign']>, userErrors: Array<ResolversTypes['UserError']> }>;
  StopCampaignPayload: ResolverTypeWrapper<Omit<StopCampaignPayload, 'campaign' | 'userErrors'> & { campaign?: Maybe<ResolversTypes['Campaign']>, userErrors: Array<ResolversTypes['UserError']> }>;
  String: ResolverTypeWrapper<Scalars['String']['output']>;
  Subscription: ResolverTypeWrapper<Record<PropertyKey, never>>;
  URL: ResolverTypeWrapper<Scalars['URL']['output']>;
  UpdateCampaignAppearanceInput: UpdateCampaignAppearanceInput;
  UpdateCampaignDiscountInput: UpdateCampaignDiscountInput;
  UpdateCampaignFeeInput: UpdateCampaignFeeInput;
  UpdateCampaignInput: UpdateCampaignInput;
  UpdateCampaignMerchantInput: UpdateCampaignMerchantInput;
  UpdateCampaignPayload: ResolverTypeWrapper<Omit<UpdateCampaignPayload, 'campaign' | 'userErrors'> & { campaign?: Maybe<ResolversTypes['Campaign']>, userErrors: Array<ResolversTypes['UserError']> }>;
  UpdateCampaignPinSettingsInput: UpdateCampaignPinSettingsInput;
  UserError: ResolverTypeWrapper<UserErrorModel>;
  UserErrorCode: UserErrorCode;
};

/** Mapping between all available schema types and the resolvers parents */
export type ResolversParentTypes = {
  AddPinsInput: AddPinsInput;
  AddPinsPayload: Omit<AddPinsPayload, 'campaign' | 'userErrors'> & { campaign?: Maybe<ResolversParentTypes['Campaign']>, userErrors: Array<ResolversParentTypes['UserError']> };
  BonusDescriptionInput: BonusDescriptionInput;
  Boolean: Scalars['Boolean']['output'];
  Campaign: CampaignRef;
  CampaignAppearance: CampaignDetails;
  CampaignAppearanceInput: CampaignAppearanceInput;
  CampaignCard: CardModel;
  CampaignCashback: CampaignDetails;
  CampaignCashbackInput: CampaignCashbackInput;
  CampaignConnection: CampaignPage;
  CampaignDiscount: CampaignDetails;
  CampaignDiscountInput: CampaignDiscountInput;
  CampaignEdge: Omit<CampaignEdge, 'node'> & { node?: Maybe<ResolversParentTypes['Campaign']> };
  CampaignFee: CampaignDetails;
  CampaignFeeInput: CampaignFeeInput;
  CampaignMerchant: CampaignDetails;
  CampaignMerchantInput: CampaignMerchantInput;
  CampaignPinSettings: CampaignDetails;
  CampaignPinSettingsInput: CampaignPinSettingsInput;
  CampaignStats: CampaignStatsModel;
  CampaignStatusEvent: StatusEvent;
  Category: CategoryModel;
  CreateCampaignInput: CreateCampaignInput;
  CreateCampaignPayload: Omit<CreateCampaignPayload, 'campaign' | 'userErrors'> & { campaign?: Maybe<ResolversParentTypes['Campaign']>, userErrors: Array<ResolversParentTypes['UserError']> };
  DateTime: Scalars['DateTime']['output'];
  Decimal: Scalars['Decimal']['output'];
  Float: Scalars['Float']['output'];
  HexColorCode: Scalars['HexColorCode']['output'];
  ID: Scalars['ID']['output'];
  Int: Scalars['Int']['output'];
  Lead: LeadModel;
  LeadCounts: LeadCountsModel;
  Mutation: Record<PropertyKey, never>;
  Node: ResolversInterfaceTypes<ResolversParentTypes>['Node'];
  Offer: OfferModel;
  OfferConnection: OfferPage;
  OfferEdge: Omit<OfferEdge, 'node'> & { node: ResolversParentTypes['Offer'] };
  OfferFeedCategory: OfferFeedCategoryModel;
  PageInfo: PageInfo;
  Pin: PinModel;
  PinConnection: PinPage;
  PinCounts: PinCountsModel;
  PinEdge: Omit<PinEdge, 'node'> & { node: ResolversParentTypes['Pin'] };
  Query: Record<PropertyKey, never>;
  ReportLeadInput: ReportLeadInput;
  ReportLeadPayload: Omit<ReportLeadPayload, 'lead' | 'userErrors'> & { lead?: Maybe<ResolversParentTypes['Lead']>, userErrors: Array<ResolversParentTypes['UserError']> };
  SafeInt: Scalars['SafeInt']['output'];
  StartCampaignPayload: Omit<StartCampaignPayload, 'campaign' | 'userErrors'> & { campaign?: Maybe<ResolversParentTypes['Campaign']>, userErrors: Array<ResolversParentTypes['UserError']> };
  StopCampaignPayload: Omit<StopCampaignPayload, 'campaign' | 'userErrors'> & { campaign?: Maybe<ResolversParentTypes['Campaign']>, userErrors: Array<ResolversParentTypes['UserError']> };
  String: Scalars['String']['output'];
  Subscription: Record<PropertyKey, never>;
  URL: Scalars['URL']['output'];
  UpdateCampaignAppearanceInput: UpdateCampaignAppearanceInput;
  UpdateCampaignDiscountInput: UpdateCampaignDiscountInput;
  UpdateCampaignFeeInput: UpdateCampaignFeeInput;
  UpdateCampaignInput: UpdateCampaignInput;
  UpdateCampaignMerchantInput: UpdateCampaignMerchantInput;
  UpdateCampaignPayload: Omit<UpdateCampaignPayload, 'campaign' | 'userErrors'> & { campaign?: Maybe<ResolversParentTypes['Campaign']>, userErrors: Array<ResolversParentTypes['UserError']> };
  UpdateCampaignPinSettingsInput: UpdateCampaignPinSettingsInput;
  UserError: UserErrorModel;
};

export type BackendCallDirectiveArgs = {
  operation: Scalars['String']['input'];
  perItem?: Maybe<Scalars['Boolean']['input']>;
};

export type BackendCallDirectiveResolver<Result, Parent, ContextType = GraphQLContext, Args = BackendCallDirectiveArgs> = DirectiveResolverFn<Result, Parent, ContextType, Args>;

export type CacheControlDirectiveArgs = {
  inheritMaxAge?: Maybe<Scalars['Boolean']['input']>;
  maxAge?: Maybe<Scalars['Int']['input']>;
  scope?: Maybe<CacheControlScope>;
};

export type CacheControlDirectiveResolver<Result, Parent, ContextType = GraphQLContext, Args = CacheControlDirectiveArgs> = DirectiveResolverFn<Result, Parent, ContextType, Args>;

export type ListSizeDirectiveArgs = {
  assumedSize?: Maybe<Scalars['Int']['input']>;
  sizedFields?: Maybe<Array<Scalars['String']['input']>>;
  slicingArguments?: Maybe<Array<Scalars['String']['input']>>;
};

export type ListSizeDirectiveResolver<Result, Parent, ContextType = GraphQLContext, Args = ListSizeDirectiveArgs> = DirectiveResolverFn<Result, Parent, ContextType, Args>;

export type AddPinsPayloadResolvers<ContextType = GraphQLContext, ParentType extends ResolversParentTypes['AddPinsPayload'] = ResolversParentTypes['AddPinsPayload']> = {
  addedCount?: Resolver<ResolversTypes['SafeInt'], ParentType, ContextType>;
  alreadyPresentCount?: Resolver<ResolversTypes['SafeInt'], ParentType, ContextType>;
  campaign?: Resolver<Maybe<ResolversTypes['Campaign']>, ParentType, ContextType>;
  duplicateCount?: Resolver<ResolversTypes['SafeInt'], ParentType, ContextType>;
  firstNotStoredIndex?: Resolver<Maybe<ResolversTypes['Int']>, ParentType, ContextType>;
  notStoredPins?: Resolver<Array<ResolversTypes['String']>, ParentType, ContextType>;
  storedCount?: Resolver<ResolversTypes['SafeInt'], ParentType, ContextType>;
  userErrors?: Resolver<Array<ResolversTypes['UserError']>, ParentType, ContextType>;
};

export type AppearanceTypeResolvers = EnumResolverSignature<{ IMAGE_BANNER?: any, UNKNOWN?: any }, ResolversTypes['AppearanceType']>;

export type AppearanceTypeInputResolvers = EnumResolverSignature<{ IMAGE_BANNER?: any }, ResolversTypes['AppearanceTypeInput']>;

export type CampaignResolvers<ContextType = GraphQLContext, ParentType extends ResolversParentTypes['Campaign'] = ResolversParentTypes['Campaign']> = {
  acceptUrl?: Resolver<Maybe<ResolversTypes['URL']>, ParentType, ContextType>;
  appearance?: Resolver<ResolversTypes['CampaignAppearance'], ParentType, ContextType>;
  card?: Resolver<ResolversTypes['CampaignCard'], ParentType, ContextType>;
  cashback?: Resolver<Maybe<ResolversTypes['CampaignCashback']>, ParentType, ContextType>;
  category?: Resolver<Maybe<ResolversTypes['Category']>, ParentType, ContextType>;
  categoryId?: Resolver<Maybe<ResolversTypes['ID']>, ParentType, ContextType>;
  conditions?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  description?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  discount?: Resolver<ResolversTypes['CampaignDiscount'], ParentType, ContextType>;
  endsAt?: Resolver<Maybe<ResolversTypes['DateTime']>, ParentType, ContextType>;
  fee?: Resolver<ResolversTypes['CampaignFee'], ParentType, ContextType>;
  id?: Resolver<ResolversTypes['ID'], ParentType, ContextType>;
  merchant?: Resolver<ResolversTypes['CampaignMerchant'], ParentType, ContextType>;
  offerDurationHours?: Resolver<Maybe<ResolversTypes['Int']>, ParentType, ContextType>;
  offerEndsAt?: Resolver<Maybe<ResolversTypes['DateTime']>, ParentType, ContextType>;
  partnerCampaignId?: Resolver<Maybe<ResolversTypes['SafeInt']>, ParentType, ContextType>;
  pinSettings?: Resolver<Maybe<ResolversTypes['CampaignPinSettings']>, ParentType, ContextType>;
  pins?: Resolver<Maybe<ResolversTypes['PinConnection']>, ParentType, ContextType, RequireFields<CampaignPinsArgs, 'first' | 'status'>>;
  rawStatus?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  rawType?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  startsAt?: Resolver<Maybe<ResolversTypes['DateTime']>, ParentType, ContextType>;
  stats?: Resolver<Maybe<ResolversTypes['CampaignStats']>, ParentType, ContextType>;
  status?: Resolver<ResolversTypes['CampaignStatus'], ParentType, ContextType>;
  supportedPlatforms?: Resolver<Maybe<Array<ResolversTypes['Platform']>>, ParentType, ContextType>;
  type?: Resolver<ResolversTypes['CampaignType'], ParentType, ContextType>;
  ymCampaignId?: Resolver<ResolversTypes['SafeInt'], ParentType, ContextType>;
  __isTypeOf?: IsTypeOfResolverFn<ParentType, ContextType>;
};

export type CampaignAppearanceResolvers<ContextType = GraphQLContext, ParentType extends ResolversParentTypes['CampaignAppearance'] = ResolversParentTypes['CampaignAppearance']> = {
  appearanceType?: Resolver<Maybe<ResolversTypes['AppearanceType']>, ParentType, ContextType>;
  backgroundColor?: Resolver<ResolversTypes['HexColorCode'], ParentType, ContextType>;
  backgroundImageUrl?: Resolver<Maybe<ResolversTypes['URL']>, ParentType, ContextType>;
  fontColor?: Resolver<ResolversTypes['HexColorCode'], ParentType, ContextType>;
};

export type CampaignCardResolvers<ContextType = GraphQLContext, ParentType extends ResolversParentTypes['CampaignCard'] = ResolversParentTypes['CampaignCard']> = {
  actionUrl?: Resolver<Maybe<ResolversTypes['URL']>, ParentType, ContextType>;
  backgroundColor?: Resolver<ResolversTypes['HexColorCode'], ParentType, ContextType>;
  backgroundImageUrl?: Resolver<Maybe<ResolversTypes['URL']>, ParentType, ContextType>;
  conditions?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  description?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  discountLabel?: Resolver<ResolversTypes['String'], ParentType, ContextType, Partial<CampaignCardDiscountLabelArgs>>;
  fontColor?: Resolver<ResolversTypes['HexColorCode'], ParentType, ContextType>;
  logoPngUrl?: Resolver<ResolversTypes['URL'], ParentType, ContextType>;
  logoSvgUrl?: Resolver<ResolversTypes['URL'], ParentType, ContextType>;
  title?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
};

export type CampaignCashbackResolvers<ContextType = GraphQLContext, ParentType extends ResolversParentTypes['CampaignCashback'] = ResolversParentTypes['CampaignCashback']> = {
  confirmDays?: Resolver<Maybe<ResolversTypes['Int']>, ParentType, ContextType>;
  type?: Resolver<Maybe<ResolversTypes['CashbackType']>, ParentType, ContextType>;
};

export type CampaignConnectionResolvers<ContextType = GraphQLContext, ParentType extends ResolversParentTypes['CampaignConnection'] = ResolversParentTypes['CampaignConnection']> = {
  edges?: Resolver<Array<ResolversTypes['CampaignEdge']>, ParentType, ContextType>;
  nodes?: Resolver<Array<Maybe<ResolversTypes['Campaign']>>, ParentType, ContextType>;
  pageInfo?: Resolver<ResolversTypes['PageInfo'], ParentType, ContextType>;
  totalCount?: Resolver<ResolversTypes['SafeInt'], ParentType, ContextType>;
};

export type CampaignDiscountResolvers<ContextType = GraphQLContext, ParentType extends ResolversParentTypes['CampaignDiscount'] = ResolversParentTypes['CampaignDiscount']> = {
  amount?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  currency?: Resolver<Maybe<ResolversTypes['CurrencyCode']>, ParentType, ContextType>;
  label?: Resolver<ResolversTypes['String'], ParentType, ContextType, RequireFields<CampaignDiscountLabelArgs, 'locale'>>;
  type?: Resolver<ResolversTypes['DiscountType'], ParentType, ContextType>;
  value?: Resolver<Maybe<ResolversTypes['Decimal']>, ParentType, ContextType>;
};

export type CampaignEdgeResolvers<ContextType = GraphQLContext, ParentType extends ResolversParentTypes['CampaignEdge'] = ResolversParentTypes['CampaignEdge']> = {
  cursor?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  node?: Resolver<Maybe<ResolversTypes['Campaign']>, ParentType, ContextType>;
};

export type CampaignFeeResolvers<ContextType = GraphQLContext, ParentType extends ResolversParentTypes['CampaignFee'] = ResolversParentTypes['CampaignFee']> = {
  amount?: Resolver<Maybe<ResolversTypes['Decimal']>, ParentType, ContextType>;
  currency?: Resolver<Maybe<ResolversTypes['CurrencyCode']>, ParentType, ContextType>;
  max?: Resolver<Maybe<ResolversTypes['Decimal']>, ParentType, ContextType>;
  min?: Resolver<Maybe<ResolversTypes['Decimal']>, ParentType, ContextType>;
  type?: Resolver<Maybe<ResolversTypes['FeeType']>, ParentType, ContextType>;
};

export type CampaignMerchantResolvers<ContextType = GraphQLContext, ParentType extends ResolversParentTypes['CampaignMerchant'] = ResolversParentTypes['CampaignMerchant']> = {
  domain?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  logoPngUrl?: Resolver<ResolversTypes['URL'], ParentType, ContextType>;
  logoSvgUrl?: Resolver<ResolversTypes['URL'], ParentType, ContextType>;
  name?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
};

export type CampaignPinSettingsResolvers<ContextType = GraphQLContext, ParentType extends ResolversParentTypes['CampaignPinSettings'] = ResolversParentTypes['CampaignPinSettings']> = {
  couponCode?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  displayType?: Resolver<Maybe<ResolversTypes['PinDisplayType']>, ParentType, ContextType>;
  expiresAt?: Resolver<Maybe<ResolversTypes['DateTime']>, ParentType, ContextType>;
  pinType?: Resolver<Maybe<ResolversTypes['PinType']>, ParentType, ContextType>;
};

export type CampaignStatsResolvers<ContextType = GraphQLContext, ParentType extends ResolversParentTypes['CampaignStats'] = ResolversParentTypes['CampaignStats']> = {
  acceptRate?: Resolver<Maybe<ResolversTypes['Float']>, ParentType, ContextType>;
  accepts?: Resolver<ResolversTypes['SafeInt'], ParentType, ContextType>;
  approvalRate?: Resolver<Maybe<ResolversTypes['Float']>, ParentType, ContextType>;
  conversionRate?: Resolver<Maybe<ResolversTypes['Float']>, ParentType, ContextType>;
  leads?: Resolver<ResolversTypes['LeadCounts'], ParentType, ContextType>;
  pins?: Resolver<ResolversTypes['PinCounts'], ParentType, ContextType>;
  redeemRate?: Resolver<Maybe<ResolversTypes['Float']>, ParentType, ContextType>;
  redeems?: Resolver<ResolversTypes['SafeInt'], ParentType, ContextType>;
  shows?: Resolver<ResolversTypes['SafeInt'], ParentType, ContextType>;
};

export type CampaignStatusResolvers = EnumResolverSignature<{ DECLINED?: any, FINISHED?: any, MODERATION?: any, PAUSED?: any, PIN_REQUIRED?: any, STARTED?: any, UNKNOWN?: any }, ResolversTypes['CampaignStatus']>;

export type CampaignStatusEventResolvers<ContextType = GraphQLContext, ParentType extends ResolversParentTypes['CampaignStatusEvent'] = ResolversParentTypes['CampaignStatusEvent']> = {
  at?: Resolver<ResolversTypes['DateTime'], ParentType, ContextType>;
  campaign?: Resolver<ResolversTypes['Campaign'], ParentType, ContextType>;
  previousStatus?: Resolver<Maybe<ResolversTypes['CampaignStatus']>, ParentType, ContextType>;
  status?: Resolver<ResolversTypes['CampaignStatus'], ParentType, ContextType>;
};

export type CampaignStatusInputResolvers = EnumResolverSignature<{ DECLINED?: any, FINISHED?: any, MODERATION?: any, PAUSED?: any, PIN_REQUIRED?: any, STARTED?: any }, ResolversTypes['CampaignStatusInput']>;

export type CampaignTypeResolvers = EnumResolverSignature<{ BANNER?: any, CODE?: any, CODE_OFFLINE?: any, CODE_ONLINE?: any, PROMO?: any, UNKNOWN?: any }, ResolversTypes['CampaignType']>;

export type CampaignTypeInputResolvers = EnumResolverSignature<{ BANNER?: any, CODE_OFFLINE?: any, CODE_ONLINE?: any, PROMO?: any }, ResolversTypes['CampaignTypeInput']>;

export type CashbackTypeResolvers = EnumResolverSignature<{ BONUS?: any, MONEY?: any, UNKNOWN?: any }, ResolversTypes['CashbackType']>;

export type CashbackTypeInputResolvers = EnumResolverSignature<{ BONUS?: any, MONEY?: any }, ResolversTypes['CashbackTypeInput']>;

export type CategoryResolvers<ContextType = GraphQLContext, ParentType extends ResolversParentTypes['Category'] = ResolversParentTypes['Category']> = {
  id?: Resolver<ResolversTypes['ID'], ParentType, ContextType>;
  name?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
};

export type CreateCampaignPayloadResolvers<ContextType = GraphQLContext, ParentType extends ResolversParentTypes['CreateCampaignPayload'] = ResolversParentTypes['CreateCampaignPayload']> = {
  campaign?: Resolver<Maybe<ResolversTypes['Campaign']>, ParentType, ContextType>;
  userErrors?: Resolver<Array<ResolversTypes['UserError']>, ParentType, ContextType>;
};

export type CurrencyCodeResolvers = EnumResolverSignature<{ RUB?: any, UNKNOWN?: any, USD?: any }, ResolversTypes['CurrencyCode']>;

export type CurrencyCodeInputResolvers = EnumResolverSignature<{ RUB?: any, USD?: any }, ResolversTypes['CurrencyCodeInput']>;

export interface DateTimeScalarConfig extends GraphQLScalarTypeConfig<ResolversTypes['DateTime'], any> {
  name: 'DateTime';
}

export interface DecimalScalarConfig extends GraphQLScalarTypeConfig<ResolversTypes['Decimal'], any> {
  name: 'Decimal';
}

export type DiscountTypeResolvers = EnumResolverSignature<{ FIX?: any, PERCENT?: any, TEXT?: any, UNKNOWN?: any }, ResolversTypes['DiscountType']>;

export type DiscountTypeInputResolvers = EnumResolverSignature<{ FIX?: any, PERCENT?: any, TEXT?: any }, ResolversTypes['DiscountTypeInput']>;

export type FeeTypeResolvers = EnumResolverSignature<{ FIX?: any, PERCENT?: any, UNKNOWN?: any }, ResolversTypes['FeeType']>;

export type FeeTypeInputResolvers = EnumResolverSignature<{ FIX?: any, PERCENT?: any }, ResolversTypes['FeeTypeInput']>;

export interface HexColorCodeScalarConfig extends GraphQLScalarTypeConfig<ResolversTypes['HexColorCode'], any> {
  name: 'HexColorCode';
}

export type LeadResolvers<ContextType = GraphQLContext, ParentType extends ResolversParentTypes['Lead'] = ResolversParentTypes['Lead']> = {
  campaign?: Resolver<ResolversTypes['Campaign'], ParentType, ContextType>;
  redeemStatus?: Resolver<ResolversTypes['RedeemStatus'], ParentType, ContextType>;
  state?: Resolver<ResolversTypes['LeadState'], ParentType, ContextType>;
  transactionId?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
};

export type LeadCountsResolvers<ContextType = GraphQLContext, ParentType extends ResolversParentTypes['LeadCounts'] = ResolversParentTypes['LeadCounts']> = {
  approved?: Resolver<ResolversTypes['SafeInt'], ParentType, ContextType>;
  declined?: Resolver<ResolversTypes['SafeInt'], ParentType, ContextType>;
  used?: Resolver<ResolversTypes['SafeInt'], ParentType, ContextType>;
};

export type LeadStateResolvers = EnumResolverSignature<{ PROCESSING?: any, UNKNOWN?: any }, ResolversTypes['LeadState']>;

export type MutationResolvers<ContextType = GraphQLContext, ParentType extends ResolversParentTypes['Mutation'] = ResolversParentTypes['Mutation']> = {
  addPins?: Resolver<ResolversTypes['AddPinsPayload'], ParentType, ContextType, RequireFields<MutationAddPinsArgs, 'input'>>;
  createCampaign?: Resolver<ResolversTypes['CreateCampaignPayload'], ParentType, ContextType, RequireFields<MutationCreateCampaignArgs, 'input'>>;
  reportLead?: Resolver<ResolversTypes['ReportLeadPayload'], ParentType, ContextType, RequireFields<MutationReportLeadArgs, 'input'>>;
  startCampaign?: Resolver<ResolversTypes['StartCampaignPayload'], ParentType, ContextType, RequireFields<MutationStartCampaignArgs, 'id'>>;
  stopCampaign?: Resolver<ResolversTypes['StopCampaignPayload'], ParentType, ContextType, RequireFields<MutationStopCampaignArgs, 'id'>>;
  updateCampaign?: Resolver<ResolversTypes['UpdateCampaignPayload'], ParentType, ContextType, RequireFields<MutationUpdateCampaignArgs, 'input'>>;
};

export type NodeResolvers<ContextType = GraphQLContext, ParentType extends ResolversParentTypes['Node'] = ResolversParentTypes['Node']> = {
  __resolveType: TypeResolveFn<'Campaign', ParentType, ContextType>;
};

export type OfferResolvers<ContextType = GraphQLContext, ParentType extends ResolversParentTypes['Offer'] = ResolversParentTypes['Offer']> = {
  acceptUrl?: Resolver<Maybe<ResolversTypes['URL']>, ParentType, ContextType>;
  card?: Resolver<ResolversTypes['CampaignCard'], ParentType, ContextType>;
  cashback?: Resolver<Maybe<ResolversTypes['CampaignCashback']>, ParentType, ContextType>;
  category?: Resolver<Maybe<ResolversTypes['Category']>, ParentType, ContextType>;
  discount?: Resolver<ResolversTypes['CampaignDiscount'], ParentType, ContextType>;
  endsAt?: Resolver<Maybe<ResolversTypes['DateTime']>, ParentType, ContextType>;
  id?: Resolver<ResolversTypes['ID'], ParentType, ContextType>;
  merchant?: Resolver<ResolversTypes['CampaignMerchant'], ParentType, ContextType>;
  offerDurationHours?: Resolver<Maybe<ResolversTypes['Int']>, ParentType, ContextType>;
  offerEndsAt?: Resolver<Maybe<ResolversTypes['DateTime']>, ParentType, ContextType>;
  pinSettings?: Resolver<Maybe<ResolversTypes['CampaignPinSettings']>, ParentType, ContextType>;
  type?: Resolver<ResolversTypes['CampaignType'], ParentType, ContextType>;
  ymCampaignId?: Resolver<ResolversTypes['SafeInt'], ParentType, ContextType>;
};

export type OfferConnectionResolvers<ContextType = GraphQLContext, ParentType extends ResolversParentTypes['OfferConnection'] = ResolversParentTypes['OfferConnection']> = {
  categories?: Resolver<Array<ResolversTypes['OfferFeedCategory']>, ParentType, ContextType>;
  edges?: Resolver<Array<ResolversTypes['OfferEdge']>, ParentType, ContextType>;
  nodes?: Resolver<Array<ResolversTypes['Offer']>, ParentType, ContextType>;
  pageInfo?: Resolver<ResolversTypes['PageInfo'], ParentType, ContextType>;
  totalCount?: Resolver<ResolversTypes['SafeInt'], ParentType, ContextType>;
};

export type OfferEdgeResolvers<ContextType = GraphQLContext, ParentType extends ResolversParentTypes['OfferEdge'] = ResolversParentTypes['OfferEdge']> = {
  cursor?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  node?: Resolver<ResolversTypes['Offer'], ParentType, ContextType>;
};

export type OfferFeedCategoryResolvers<ContextType = GraphQLContext, ParentType extends ResolversParentTypes['OfferFeedCategory'] = ResolversParentTypes['OfferFeedCategory']> = {
  category?: Resolver<ResolversTypes['Category'], ParentType, ContextType>;
  offerCount?: Resolver<ResolversTypes['SafeInt'], ParentType, ContextType>;
};

export type PageInfoResolvers<ContextType = GraphQLContext, ParentType extends ResolversParentTypes['PageInfo'] = ResolversParentTypes['PageInfo']> = {
  endCursor?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  hasNextPage?: Resolver<ResolversTypes['Boolean'], ParentType, ContextType>;
  hasPreviousPage?: Resolver<ResolversTypes['Boolean'], ParentType, ContextType>;
  startCursor?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
};

export type PinResolvers<ContextType = GraphQLContext, ParentType extends ResolversParentTypes['Pin'] = ResolversParentTypes['Pin']> = {
  code?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  status?: Resolver<ResolversTypes['PinStatus'], ParentType, ContextType>;
};

export type PinConnectionResolvers<ContextType = GraphQLContext, ParentType extends ResolversParentTypes['PinConnection'] = ResolversParentTypes['PinConnection']> = {
  edges?: Resolver<Array<ResolversTypes['PinEdge']>, ParentType, ContextType>;
  nodes?: Resolver<Array<ResolversTypes['Pin']>, ParentType, ContextType>;
  pageInfo?: Resolver<ResolversTypes['PageInfo'], ParentType, ContextType>;
  totalCount?: Resolver<ResolversTypes['SafeInt'], ParentType, ContextType>;
};

export type PinCountsResolvers<ContextType = GraphQLContext, ParentType extends ResolversParentTypes['PinCounts'] = ResolversParentTypes['PinCounts']> = {
  total?: Resolver<ResolversTypes['SafeInt'], ParentType, ContextType>;
  unused?: Resolver<ResolversTypes['SafeInt'], ParentType, ContextType>;
};

export type PinDisplayTypeResolvers = EnumResolverSignature<{ EAN_13?: any, TEXT?: any, UNKNOWN?: any }, ResolversTypes['PinDisplayType']>;

export type PinDisplayTypeInputResolvers = EnumResolverSignature<{ EAN_13?: any, TEXT?: any }, ResolversTypes['PinDisplayTypeInput']>;

export type PinEdgeResolvers<ContextType = GraphQLContext, ParentType extends ResolversParentTypes['PinEdge'] = ResolversParentTypes['PinEdge']> = {
  cursor?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  node?: Resolver<ResolversTypes['Pin'], ParentType, ContextType>;
};

export type PinStatusResolvers = EnumResolverSignature<{ ACCEPTED_BY_USER?: any, NEW_UNUSED?: any, REDEEM_RECEIVED?: any }, ResolversTypes['PinStatus']>;

export type PinTypeResolvers = EnumResolverSignature<{ ONE_OFF?: any, REUSABLE?: any, UNKNOWN?: any }, ResolversTypes['PinType']>;

export type PinTypeInputResolvers = EnumResolverSignature<{ ONE_OFF?: any, REUSABLE?: any }, ResolversTypes['PinTypeInput']>;

export type PlatformResolvers = EnumResolverSignature<{ DESKTOP?: any, MOBILE?: any, UNKNOWN?: any }, ResolversTypes['Platform']>;

export type PlatformInputResolvers = EnumResolverSignature<{ DESKTOP?: any, MOBILE?: any }, ResolversTypes['PlatformInput']>;

export type QueryResolvers<ContextType = GraphQLContext, ParentType extends ResolversParentTypes['Query'] = ResolversParentTypes['Query']> = {
  campaign?: Resolver<Maybe<ResolversTypes['Campaign']>, ParentType, ContextType, RequireFields<QueryCampaignArgs, 'id'>>;
  campaigns?: Resolver<Maybe<ResolversTypes['CampaignConnection']>, ParentType, ContextType, RequireFields<QueryCampaignsArgs, 'first'>>;
  campaignsByIds?: Resolver<Maybe<Array<Maybe<ResolversTypes['Campaign']>>>, ParentType, ContextType, RequireFields<QueryCampaignsByIdsArgs, 'ids'>>;
  categories?: Resolver<Maybe<Array<ResolversTypes['Category']>>, ParentType, ContextType>;
  category?: Resolver<Maybe<ResolversTypes['Category']>, ParentType, ContextType, RequireFields<QueryCategoryArgs, 'id'>>;
  node?: Resolver<Maybe<ResolversTypes['Node']>, ParentType, ContextType, RequireFields<QueryNodeArgs, 'id'>>;
  nodes?: Resolver<Maybe<Array<Maybe<ResolversTypes['Node']>>>, ParentType, ContextType, RequireFields<QueryNodesArgs, 'ids'>>;
  offerFeed?: Resolver<Maybe<ResolversTypes['OfferConnection']>, ParentType, ContextType, RequireFields<QueryOfferFeedArgs, 'first'>>;
};

export type RedeemStatusResolvers = EnumResolverSignature<{ APPROVED?: any, DECLINED?: any, USED?: any }, ResolversTypes['RedeemStatus']>;

export type ReportLeadPayloadResolvers<ContextType = GraphQLContext, ParentType extends ResolversParentTypes['ReportLeadPayload'] = ResolversParentTypes['ReportLeadPayload']> = {
  lead?: Resolver<Maybe<ResolversTypes['Lead']>, ParentType, ContextType>;
  userErrors?: Resolver<Array<ResolversTypes['UserError']>, ParentType, ContextType>;
};

export interface SafeIntScalarConfig extends GraphQLScalarTypeConfig<ResolversTypes['SafeInt'], any> {
  name: 'SafeInt';
}

export type StartCampaignPayloadResolvers<ContextType = GraphQLContext, ParentType extends ResolversParentTypes['StartCampaignPayload'] = ResolversParentTypes['StartCampaignPayload']> = {
  campaign?: Resolver<Maybe<ResolversTypes['Campaign']>, ParentType, ContextType>;
  userErrors?: Resolver<Array<ResolversTypes['UserError']>, ParentType, ContextType>;
};

export type StopCampaignPayloadResolvers<ContextType = GraphQLContext, ParentType extends ResolversParentTypes['StopCampaignPayload'] = ResolversParentTypes['StopCampaignPayload']> = {
  campaign?: Resolver<Maybe<ResolversTypes['Campaign']>, ParentType, ContextType>;
  userErrors?: Resolver<Array<ResolversTypes['UserError']>, ParentType, ContextType>;
};

export type SubscriptionResolvers<ContextType = GraphQLContext, ParentType extends ResolversParentTypes['Subscription'] = ResolversParentTypes['Subscription']> = {
  campaignChanged?: SubscriptionResolver<ResolversTypes['CampaignStatusEvent'], "campaignChanged", ParentType, ContextType, Partial<SubscriptionCampaignChangedArgs>>;
};

export interface UrlScalarConfig extends GraphQLScalarTypeConfig<ResolversTypes['URL'], any> {
  name: 'URL';
}

export type UpdateCampaignPayloadResolvers<ContextType = GraphQLContext, ParentType extends ResolversParentTypes['UpdateCampaignPayload'] = ResolversParentTypes['UpdateCampaignPayload']> = {
  campaign?: Resolver<Maybe<ResolversTypes['Campaign']>, ParentType, ContextType>;
  userErrors?: Resolver<Array<ResolversTypes['UserError']>, ParentType, ContextType>;
};

export type UserErrorResolvers<ContextType = GraphQLContext, ParentType extends ResolversParentTypes['UserError'] = ResolversParentTypes['UserError']> = {
  code?: Resolver<ResolversTypes['UserErrorCode'], ParentType, ContextType>;
  field?: Resolver<Maybe<Array<ResolversTypes['String']>>, ParentType, ContextType>;
  message?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
};

export type UserErrorCodeResolvers = EnumResolverSignature<{ BACKEND_BAD_RESPONSE?: any, BACKEND_UNAVAILABLE?: any, CAMPAIGN_NOT_FOUND?: any, FAIL_FINISHED?: any, FAIL_MERCHANT?: any, FAIL_MODERATOR?: any, FAIL_PIN?: any, FORMAT?: any, INCORRECT_DATA?: any, NOT_ALLOWED?: any, NOT_ALLOWED_NOW?: any, NOT_FOUND?: any, OUT_OF_RANGE?: any, REPEAT_CAMPAIGN_DATA?: any, REQUIRED?: any, TOO_LONG?: any, UNKNOWN?: any }, ResolversTypes['UserErrorCode']>;

export type Resolvers<ContextType = GraphQLContext> = {
  AddPinsPayload?: AddPinsPayloadResolvers<ContextType>;
  AppearanceType?: AppearanceTypeResolvers;
  AppearanceTypeInput?: AppearanceTypeInputResolvers;
  Campaign?: CampaignResolvers<ContextType>;
  CampaignAppearance?: CampaignAppearanceResolvers<ContextType>;
  CampaignCard?: CampaignCardResolvers<ContextType>;
  CampaignCashback?: CampaignCashbackResolvers<ContextType>;
  CampaignConnection?: CampaignConnectionResolvers<ContextType>;
  CampaignDiscount?: CampaignDiscountResolvers<ContextType>;
  CampaignEdge?: CampaignEdgeResolvers<ContextType>;
  CampaignFee?: CampaignFeeResolvers<ContextType>;
  CampaignMerchant?: CampaignMerchantResolvers<ContextType>;
  CampaignPinSettings?: CampaignPinSettingsResolvers<ContextType>;
  CampaignStats?: CampaignStatsResolvers<ContextType>;
  CampaignStatus?: CampaignStatusResolvers;
  CampaignStatusEvent?: CampaignStatusEventResolvers<ContextType>;
  CampaignStatusInput?: CampaignStatusInputResolvers;
  CampaignType?: CampaignTypeResolvers;
  CampaignTypeInput?: CampaignTypeInputResolvers;
  CashbackType?: CashbackTypeResolvers;
  CashbackTypeInput?: CashbackTypeInputResolvers;
  Category?: CategoryResolvers<ContextType>;
  CreateCampaignPayload?: CreateCampaignPayloadResolvers<ContextType>;
  CurrencyCode?: CurrencyCodeResolvers;
  CurrencyCodeInput?: CurrencyCodeInputResolvers;
  DateTime?: GraphQLScalarType;
  Decimal?: GraphQLScalarType;
  DiscountType?: DiscountTypeResolvers;
  DiscountTypeInput?: DiscountTypeInputResolvers;
  FeeType?: FeeTypeResolvers;
  FeeTypeInput?: FeeTypeInputResolvers;
  HexColorCode?: GraphQLScalarType;
  Lead?: LeadResolvers<ContextType>;
  LeadCounts?: LeadCountsResolvers<ContextType>;
  LeadState?: LeadStateResolvers;
  Mutation?: MutationResolvers<ContextType>;
  Node?: NodeResolvers<ContextType>;
  Offer?: OfferResolvers<ContextType>;
  OfferConnection?: OfferConnectionResolvers<ContextType>;
  OfferEdge?: OfferEdgeResolvers<ContextType>;
  OfferFeedCategory?: OfferFeedCategoryResolvers<ContextType>;
  PageInfo?: PageInfoResolvers<ContextType>;
  Pin?: PinResolvers<ContextType>;
  PinConnection?: PinConnectionResolvers<ContextType>;
  PinCounts?: PinCountsResolvers<ContextType>;
  PinDisplayType?: PinDisplayTypeResolvers;
  PinDisplayTypeInput?: PinDisplayTypeInputResolvers;
  PinEdge?: PinEdgeResolvers<ContextType>;
  PinStatus?: PinStatusResolvers;
  PinType?: PinTypeResolvers;
  PinTypeInput?: PinTypeInputResolvers;
  Platform?: PlatformResolvers;
  PlatformInput?: PlatformInputResolvers;
  Query?: QueryResolvers<ContextType>;
  RedeemStatus?: RedeemStatusResolvers;
  ReportLeadPayload?: ReportLeadPayloadResolvers<ContextType>;
  SafeInt?: GraphQLScalarType;
  StartCampaignPayload?: StartCampaignPayloadResolvers<ContextType>;
  StopCampaignPayload?: StopCampaignPayloadResolvers<ContextType>;
  Subscription?: SubscriptionResolvers<ContextType>;
  URL?: GraphQLScalarType;
  UpdateCampaignPayload?: UpdateCampaignPayloadResolvers<ContextType>;
  UserError?: UserErrorResolvers<ContextType>;
  UserErrorCode?: UserErrorCodeResolvers;
};

export type DirectiveResolvers<ContextType = GraphQLContext> = {
  backendCall?: BackendCallDirectiveResolver<any, any, ContextType>;
  cacheControl?: CacheControlDirectiveResolver<any, any, ContextType>;
  listSize?: ListSizeDirectiveResolver<any, any, ContextType>;
};
