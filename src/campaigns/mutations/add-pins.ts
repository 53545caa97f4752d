import {
  BusinessError,
  CODE_CAMPAIGN_TYPES,
  CampaignApiError,
  RequestRefusedError,
  UnauthenticatedError,
  isBadResponse,
  isUnknownEnumValue,
  pinKey,
  pinIssue,
  type CampaignStatus,
  type UnknownEnumValue,
} from '../../campaign-api/index.js';
import { quote } from '../../text/received-value.js';
import { textIssue } from '../../text/text-rule.js';
import type { GraphQLContext } from '../../schema/context.js';
import { CampaignTypeValues, UNKNOWN_VALUE } from '../../schema/enum-values.js';
import { unavailableReason } from '../errors.js';
import type { CampaignRef, UserErrorModel } from '../../schema/models.js';
import { parseCampaignId } from '../campaign-id.js';
import { campaignRef } from '../campaign-ref.js';
import { inGraphQLTerms } from '../vocabulary.js';
import { CAMPAIGN_NAMES } from './input-fields.js';
import { incorrect, problem, userError, userErrorsFromBusiness } from './user-errors.js';

export interface AddPinsPayloadModel {
  campaign: CampaignRef | null;
  addedCount: number;
  duplicateCount: number;
  alreadyPresentCount: number;
  storedCount: number;
  notStoredPins: string[];
  firstNotStoredIndex: number | null;
  userErrors: UserErrorModel[];
}

interface UniquePin {
  pin: string;
  /** Index of its first occurrence in the input. */
  index: number;
}

const PINS = ['input', 'pins'];

/** Nothing was sent: the input as a whole was refused, so no count applies to it, not even duplicates. */
function refused(userErrors: UserErrorModel[], campaign: CampaignRef | null = null): AddPinsPayloadModel {
  return { campaign, addedCount: 0, duplicateCount: 0, alreadyPresentCount: 0, storedCount: 0, notStoredPins: [], firstNotStoredIndex: 0, userErrors };
}

function graphqlTypeName(value: string): string {
  return Object.entries(CampaignTypeValues).find(([, v]) => v === value)?.[0] ?? value;
}

/** Drops repeats (case-insensitively, keeping the first spelling and index). */
export function dedupePins(pins: readonly string[]): { unique: UniquePin[]; duplicateCount: number } {
  const seen = new Set<string>();
  const unique: UniquePin[] = [];
  pins.forEach((pin, index) => {
    const key = pinKey(pin);
    if (seen.has(key)) return;
    seen.add(key);
    unique.push({ pin, index });
  });
  return { unique, duplicateCount: pins.length - unique.length };
}

/**
 * addPins: checks everything first (count, campaign kind, every pin against the display type) and
 * sends nothing unless all is well; then uploads in chunks, one after another, and reports exactly
 * what the backend confirmed. A failed chunk stops the upload and is reported with every pin from
 * it on, so nothing is lost silently.
 */
export async function addPins(ctx: GraphQLContext, input: { campaignId: string; pins: string[] }): Promise<AddPinsPayloadModel> {
  const { maxPinsPerMutation } = ctx.limits;
  const { pins } = input;
  if (pins.length === 0) return refused([problem(PINS, 'required', 'must contain at least one pin')]);
  if (pins.length > maxPinsPerMutation) {
    return refused([problem(PINS, 'tooLong', `takes at most ${maxPinsPerMutation} pins per call, got ${pins.length}; split them into several addPins calls`)]);
  }

  // Text no campaign can hold fails whatever the campaign's display type: refused before any call.
  const badText = pins.flatMap((pin, index) => {
    const bad = textIssue(pin);
    return bad ? [problem([...PINS, String(index)], bad.kind, bad.message)] : [];
  });
  if (badText.length) return refused(badText);

  const ymCampaignId = parseCampaignId(input.campaignId);
  const notFound = () => refused([userError(['input', 'campaignId'], 'campaignNotFound', `no campaign with id ${quote(input.campaignId)} belongs to this partner`)]);
  if (ymCampaignId === null) return notFound();
  const details = await ctx.loaders.details.load(ymCampaignId);
  if (!details) return notFound();
  const campaign = campaignRef(ymCampaignId, details.campaignStatus, details);

  const type = details.campaignType;
  const takesPins = (t: typeof type) => !isUnknownEnumValue(t) && CODE_CAMPAIGN_TYPES.includes(t);
  if (!isUnknownEnumValue(type) && (!takesPins(type) || details.pinType === 'reusable')) {
    const kind = takesPins(type) ? `a ${graphqlTypeName(type)} campaign with pinSettings.pinType REUSABLE (its one code is pinSettings.couponCode)` : `a ${graphqlTypeName(type)} campaign`;
    return refused([problem(['input', 'campaignId'], 'notAllowed', `pins can be added only to CODE_ONLINE or CODE_OFFLINE campaigns with pinSettings.pinType ONE_OFF; campaign ${ymCampaignId} is ${kind}`)], campaign);
  }

  const { unique, duplicateCount } = dedupePins(pins);
  const displayType = details.pinDisplayType;
  // An unknown display type is the backend's to judge; a missing one gets the text rules.
  if (!isUnknownEnumValue(displayType)) {
    const problems: UserErrorModel[] = [];
    for (const { pin, index } of unique) {
      const bad = pinIssue(pin, displayType ?? 'text');
      if (bad) problems.push(problem([...PINS, String(index)], bad.kind, inGraphQLTerms(bad.message, CAMPAIGN_NAMES)));
    }
    if (problems.length) return refused(problems, campaign);
  }

  // add-pins answers the campaign's totals, not what the call added, so a chunk's
  // added pins are its total minus the total before it. That holds only while nothing else adds to
  // the campaign in between: uploads to one campaign through this process wait for each other.
  return ctx.pinUploads.run(String(ymCampaignId), () => upload(ctx, campaign, unique, duplicateCount));
}

/** Sends the checked pins in chunks, one after another, counting what each chunk added. */
async function upload(ctx: GraphQLContext, campaign: CampaignRef, unique: UniquePin[], duplicateCount: number): Promise<AddPinsPayloadModel> {
  const { pinChunkSize } = ctx.limits;
  const { ymCampaignId } = campaign;
  const before = await ctx.partner.info({ ymCampaignId });
  let total = before.campaignPinsStats.total;
  let status: CampaignStatus | UnknownEnumValue = before.campaignStatus;
  let stored = 0;
  let added = 0;
  const userErrors: UserErrorModel[] = [];
  let failedAt: number | null = null;

  for (let start = 0; start < unique.length; start += pinChunkSize) {
    const chunk = unique.slice(start, start + pinChunkSize);
    try {
      const result = await ctx.partner.addPins({ ymCampaignId, pinList: chunk.map((p) => p.pin) });
      stored += chunk.length;
      // Bounded by the chunk, so pins another server adds meanwhile can never make it exceed what was sent.
      added += Math.min(Math.max(result.counters.totalPinCount - total, 0), chunk.length);
      total = result.counters.totalPinCount;
      status = result.campaignStatus;
    } catch (error) {
      if (error instanceof UnauthenticatedError || !(error instanceof CampaignApiError)) throw error;
      failedAt = start;
      const range = `pins from input index ${chunk[0]!.index} on (${unique.length - start} distinct pins)`;
      if (error instanceof BusinessError) {
        userErrors.push(
          ...userErrorsFromBusiness(
            error,
            (path) => {
              const i = path[0] === 'pinList' && path[1] !== undefined ? chunk[Number(path[1])]?.index : undefined;
              if (i !== undefined) return [...PINS, String(i)];
              return path[0] === 'ymCampaignId' ? ['input', 'campaignId'] : path[0] === 'pinList' ? PINS : ['input', ...path];
            },
            PINS,
            CAMPAIGN_NAMES,
          ),
        );
        if (stored > 0) userErrors.push(incorrect(PINS, `the upload stopped: ${range} were not stored; fix and re-send them (see notStoredPins)`));
      } else if (error instanceof RequestRefusedError) {
        userErrors.push(
          userError(PINS, UNKNOWN_VALUE, `the campaign API refused the upload of ${range} with HTTP ${error.httpStatus} and no error code; they were not stored (see notStoredPins)`),
        );
      } else {
        const code = isBadResponse(error) ? 'backendBadResponse' : 'backendUnavailable';
        const what = isBadResponse(error) ? 'answered with data this API cannot use' : `was unavailable (${unavailableReason(error)})`;
        userErrors.push(
          userError(PINS, code, `the campaign API ${what}; ${range} are not confirmed stored (the failed chunk may or may not have been stored); re-send notStoredPins, pins already stored are ignored`),
        );
      }
      break;
    }
  }

  const notStored = failedAt === null ? [] : unique.slice(failedAt);
  return {
    campaign: campaignRef(ymCampaignId, status, campaign.details),
    addedCount: added,
    duplicateCount,
    alreadyPresentCount: stored - added,
    storedCount: stored,
    notStoredPins: notStored.map((p) => p.pin),
    firstNotStoredIndex: notStored[0]?.index ?? null,
    userErrors,
  };
}
