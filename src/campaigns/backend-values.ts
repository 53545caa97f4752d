import { isUnknownEnumValue, type CampaignDetails, type UnknownEnumValue } from '../campaign-api/index.js';
import type { GraphQLContext } from '../schema/context.js';
import { UNKNOWN_CURRENCY, UNKNOWN_VALUE } from '../schema/enum-values.js';
import type { CampaignRef } from '../schema/models.js';
import { clientError } from '../graphql/errors.js';

/** A backend enum value as the schema's internal value: unknown ones become `UNKNOWN`. */
export function known<T extends string>(value: T | UnknownEnumValue): T | typeof UNKNOWN_VALUE {
  return isUnknownEnumValue(value) ? UNKNOWN_VALUE : value;
}

export function knownOrNull<T extends string>(value: T | UnknownEnumValue | undefined): T | typeof UNKNOWN_VALUE | null {
  return value === undefined ? null : known(value);
}

/** The value exactly as the backend sent it. */
export function raw(value: string | UnknownEnumValue): string {
  return isUnknownEnumValue(value) ? value.unknown : value;
}

export function currency(code: number | undefined): 643 | 840 | typeof UNKNOWN_CURRENCY | null {
  if (code === undefined) return null;
  return code === 643 || code === 840 ? code : UNKNOWN_CURRENCY;
}

/**
 * The campaign's record: at hand for `campaign(id)`, else loaded through the request's
 * DataLoader. Returns the promise without awaiting first, so every node of a page joins one batch.
 */
export function recordOf(ref: CampaignRef, ctx: GraphQLContext): CampaignDetails | Promise<CampaignDetails> {
  return withRecord(ref, ctx, asIs);
}

/** Reads one value of the record, for the many Campaign fields that are just that. */
export function fromRecord<T>(pick: (details: CampaignDetails) => T) {
  return (ref: CampaignRef, _args: unknown, ctx: GraphQLContext): T | Promise<T> => withRecord(ref, ctx, pick);
}

const asIs = (details: CampaignDetails) => details;

/** `pick` of the record, one step after it loads: a page of cards waits on fifty of these. */
function withRecord<T>(ref: CampaignRef, ctx: GraphQLContext, pick: (details: CampaignDetails) => T): T | Promise<T> {
  if (ref.details) return pick(ref.details);
  return ctx.loaders.details.load(ref.ymCampaignId).then((details) => {
    if (details) return pick(details);
    throw clientError(`Campaign ${ref.ymCampaignId} no longer exists for this partner.`, {
      extensions: { code: 'CAMPAIGN_NOT_FOUND' },
    });
  });
}
