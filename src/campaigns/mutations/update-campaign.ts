import {
  BusinessError,
  CODE_CAMPAIGN_TYPES,
  CampaignApiError,
  PARSE_OPTIONS,
  UnauthenticatedError,
  CAMPAIGN_TYPES,
  campaignData,
  campaignFieldShape,
  fieldsReplacedBy,
  isUnknownEnumValue,
  type CampaignDetails,
  type CampaignFieldName,
  type RequestOf,
} from '../../campaign-api/index.js';
import { isMoney } from '../../text/money.js';
import { quote } from '../../text/received-value.js';
import type { GraphQLContext } from '../../schema/context.js';
import { clientError, ErrorCode } from '../../graphql/errors.js';
import type { UpdateCampaignInput } from '../../schema/generated/resolvers-types.js';
import type { UserErrorModel } from '../../schema/models.js';
import { parseCampaignId } from '../campaign-id.js';
import { campaignRef } from '../campaign-ref.js';
import { atInput, checkUpdateChanges, problemsOf } from './campaign-input.js';
import type { CampaignPayload } from './create-campaign.js';
import { INPUT_NAMES, flattenInput } from './input-fields.js';
import { problem, splitBackendPath, userError, userErrorsFromBusiness, type FieldPath } from './user-errors.js';

const ID = ['input', 'id'];

/** The writable fields of a campaign, less the key campaigns/update finds it by. */
const FIELDS = (Object.keys(campaignFieldShape) as CampaignFieldName[]).filter((f) => f !== 'partnerCampaignId');

type CampaignRecord = Partial<Record<CampaignFieldName, unknown>>;

const refused = (userErrors: UserErrorModel[]): CampaignPayload => ({ campaign: null, userErrors });

/**
 * The campaign's writable data as campaigns/get answered it. A value the contract cannot write
 * back (an enum value newer than this API, the samples' read-only `code` kind) is left out: the
 * campaign API keeps a field it is not sent.
 */
function writableRecord(details: CampaignDetails): CampaignRecord {
  const record: CampaignRecord = {};
  for (const field of FIELDS) {
    const value = (details as Record<string, unknown>)[field];
    if (value === undefined || isUnknownEnumValue(value)) continue;
    if (field === 'campaignType' && !(CAMPAIGN_TYPES as readonly unknown[]).includes(value)) continue;
    record[field] = value;
  }
  return record;
}

/** The record after the changes: replaced forms dropped, null fields cleared, the rest set. */
function applyChanges(current: CampaignRecord, changes: Record<string, unknown>): CampaignRecord {
  const next: CampaignRecord = { ...current };
  for (const field of fieldsReplacedBy(changes)) if (!(field in changes)) delete next[field];
  for (const [field, value] of Object.entries(changes) as [CampaignFieldName, unknown][]) {
    if (value === null) delete next[field];
    else next[field] = value;
  }
  return next;
}

const MONEY_FIELDS: ReadonlySet<string> = new Set(['campaignFee', 'campaignFeeMin', 'campaignFeeMax', 'discountAmount']);
const DATE_FIELDS: ReadonlySet<string> = new Set(['campaignStart', 'campaignEnd', 'offerEnd']);
/** Optional currencies mean roubles, and campaigns/get answers 643 for one never set. */
const CURRENCY_FIELDS: ReadonlySet<string> = new Set(['discountCurrency', 'feeCurrency']);
const URL_FIELDS: ReadonlySet<string> = new Set(['acceptUrl', 'merchantLogoSvg', 'merchantLogoPng', 'backgroundImage']);
const COLOUR_FIELDS: ReadonlySet<string> = new Set(['backgroundColor', 'fontColor']);

/** A URL as the `URL` scalar answers it (normalised), or null when it is none. */
function href(value: string): string | null {
  try {
    return new URL(value).href;
  } catch {
    return null;
  }
}

/** Equal as values: the same amount, instant or set of platforms written another way is no change. */
function sameValue(field: string, a: unknown, b: unknown): boolean {
  if (CURRENCY_FIELDS.has(field)) return (a ?? 643) === (b ?? 643);
  if (a === b) return true;
  if (typeof a !== 'string' || typeof b !== 'string') return false;
  if (MONEY_FIELDS.has(field)) return isMoney(a) && isMoney(b) && Number(a) === Number(b);
  if (DATE_FIELDS.has(field)) return !Number.isNaN(Date.parse(a)) && Date.parse(a) === Date.parse(b);
  // A form sends back what a query answered: a URL as the scalar normalised it, a colour in any case.
  if (URL_FIELDS.has(field)) return href(a) !== null && href(a) === href(b);
  if (COLOUR_FIELDS.has(field)) return a.toLowerCase() === b.toLowerCase();
  if (field === 'supportedPlatforms') {
    const set = (v: string) => [...new Set(v.split(',').map((p) => p.trim()))].sort().join();
    return set(a) === set(b);
  }
  return false;
}

function sameRecord(a: CampaignRecord, b: CampaignRecord): boolean {
  const fields = new Set([...Object.keys(a), ...Object.keys(b)]) as Set<CampaignFieldName>;
  return [...fields].every((f) => sameValue(f, a[f], b[f]));
}

/**
 * One-off codes already uploaded pin the campaign's kind (they could not be handed out otherwise):
 * the fields of a one-off code campaign this change would move away from it, each a NOT_ALLOWED_NOW
 * while the campaign holds codes. Reads campaigns/info only when such a field changes; when that
 * read fails, the campaign API judges the change itself.
 */
async function pinKindProblems(ctx: GraphQLContext, ymCampaignId: number, current: CampaignRecord, next: CampaignRecord): Promise<UserErrorModel[]> {
  if (current.pinType !== 'one-off') return [];
  const moved = (['campaignType', 'pinType', 'pinDisplayType'] as const).filter((field) =>
    field === 'campaignType' ? !CODE_CAMPAIGN_TYPES.includes(String(next.campaignType)) : next[field] !== current[field],
  );
  if (moved.length === 0) return [];
  let held: number;
  try {
    held = (await ctx.loaders.stats.load(ymCampaignId))?.campaignPinsStats.total ?? 0;
  } catch (error) {
    if (error instanceof UnauthenticatedError || !(error instanceof CampaignApiError)) throw error;
    return [];
  }
  return held === 0 ? [] : moved.map((field) => problem(atInput([field]), 'notAllowedNow', `cannot change while the campaign holds ${held} ONE_OFF pins`));
}

/**
 * A problem with a field of the whole record, in the words of this update: a field the caller
 * sent is theirs; one the campaign has and the caller did not send is said to be its current
 * value; one it lacks is a requirement the change brought (acceptUrl for a PROMO).
 */
function describeField(field: string, message: string, sent: ReadonlySet<string>, held: ReadonlySet<string>): string {
  if (sent.has(field) || !held.has(field)) return message;
  return `the campaign's current ${INPUT_NAMES[field] ?? field} (not part of this update) is refused: ${message}`;
}

/**
 * updateCampaign: checks the fields sent, reads the campaign (campaigns/get), applies the changes
 * and sends the whole record to campaigns/update, which is keyed by partnerCampaignId. Sending
 * the whole record keeps the result the same whether the campaign API merges what it is sent
 * or replaces the data with it, and lets null clear a field.
 *
 * An update that changes nothing (no field but id, or every value the campaign already has, as a
 * form saved again or a retried request sends it) succeeds with the campaign as it was read, and
 * writes nothing: campaigns/update would send a running campaign back to moderation.
 */
export async function updateCampaign(ctx: GraphQLContext, input: UpdateCampaignInput): Promise<CampaignPayload> {
  const { id, ...fields } = input;
  const ymCampaignId = parseCampaignId(id);
  if (ymCampaignId === null) {
    return refused([userError(ID, 'campaignNotFound', `no campaign has id ${quote(id)}; pass a Campaign.id`)]);
  }
  const given = flattenInput(fields as Record<string, unknown>);
  const sent: ReadonlySet<string> = new Set(Object.keys(given.fields));
  const { request: changes, userErrors } = await checkUpdateChanges(ctx, fields);
  if (!changes) return refused(userErrors);

  // Read afresh: an earlier field of this request may have loaded the campaign before a change.
  ctx.loaders.details.clear(ymCampaignId);
  const details = await ctx.loaders.details.load(ymCampaignId);
  if (!details) return refused([userError(ID, 'campaignNotFound', `no campaign with id ${quote(id)} belongs to this partner`)]);
  const unchanged: CampaignPayload = { campaign: campaignRef(ymCampaignId, details.campaignStatus, details), userErrors: [] };
  if (sent.size === 0) return unchanged;

  const current = writableRecord(details);
  // Fields the campaign has, also those with a value this API cannot write back.
  const held: ReadonlySet<string> = new Set(FIELDS.filter((f) => (details as Record<string, unknown>)[f] !== undefined));
  const next = applyChanges(current, changes as Record<string, unknown>);
  if (sameRecord(current, next)) return unchanged;
  const pinKind = await pinKindProblems(ctx, ymCampaignId, current, next);
  if (pinKind.length) return refused(pinKind);
  const { partnerCampaignId } = details;
  if (partnerCampaignId === undefined) {
    throw clientError(`The campaign API did not say which partnerCampaignId campaign ${ymCampaignId} has, and needs it to change the campaign; nothing was changed.`, {
      extensions: { code: ErrorCode.BACKEND_BAD_RESPONSE, reason: 'contract' },
    });
  }

  // The whole campaign after the change, checked before anything is written. A problem with a
  // value it already had and the caller did not send is left to the campaign API to judge.
  // Its messages go through the create path's translation into the GraphQL API's words.
  const whole = { ...next, partnerCampaignId };
  const parsed = campaignData.safeParse(whole, PARSE_OPTIONS);
  if (!parsed.success) {
    const theirs = parsed.error.issues.filter((issue) => {
      const field = issue.path[0];
      return typeof field === 'string' && (sent.has(field) || !held.has(field));
    });
    if (theirs.length) return refused(problemsOf({ issues: theirs }));
  }

  // Fields the record had and no longer has go as null, so that a merging campaign API clears them too.
  const request: Record<string, unknown> = { ...whole };
  for (const field of Object.keys(current)) if (!(field in next)) request[field] = null;
  try {
    const result = await ctx.partner.update(request as RequestOf<'update'>);
    ctx.loaders.details.clear(ymCampaignId);
    return { campaign: campaignRef(result.ymCampaignId, result.campaignStatus), userErrors: [] };
  } catch (error) {
    if (!(error instanceof BusinessError)) throw error;
    return refused(refusal(error, id, ymCampaignId, sent, held));
  }
}

/** A refusal of campaigns/update in this mutation's words, naming what the caller sent where it can. */
function refusal(error: BusinessError, id: string, ymCampaignId: number, sent: ReadonlySet<string>, held: ReadonlySet<string>): UserErrorModel[] {
  if (error.code === 'campaignNotFound') {
    return [userError(ID, 'campaignNotFound', `no campaign with id ${quote(id)} belongs to this partner`)];
  }
  if (error.code === 'failFinished') {
    // The campaign is finished: say so, on campaignEnd only if the caller sent one.
    const field = sent.has('campaignEnd') ? atInput(['campaignEnd']) : ID;
    return [
      userError(field, 'failFinished', `campaign ${ymCampaignId} is FINISHED (its end has passed): updateCampaign changes it only together with an endsAt in the future, which sends it to moderation again`),
    ];
  }
  const mapField = (path: string[]): FieldPath => (path[0] === 'partnerCampaignId' || path[0] === 'ymCampaignId' ? ID : atInput(path));
  // One user error per field the campaign API named, in its order. It names fields of the whole
  // record it was sent: say which of them the caller did not send.
  return userErrorsFromBusiness(error, mapField, null, INPUT_NAMES).map((e, i) => {
    const path = error.fields[i] ? splitBackendPath(error.fields[i].field) : null;
    if (!path || e.field === ID) return e;
    return { ...e, message: describeField(path[0]!, e.message, sent, held) };
  });
}
