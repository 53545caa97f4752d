import { createHash } from 'node:crypto';
import { badArgument } from '../graphql/errors.js';

/** Where a page of a campaign's lists ends, as its cursors carry it (src/graphql/pagination.ts signs them). */
const INDEX = '(0|[1-9]\\d{0,14})';

/** A position in the campaign list: the last id seen, and its index (a hint: where to look first). */
export interface CampaignPosition {
  lastId: number;
  index: number;
}

export const campaignPosition = {
  encode: (p: CampaignPosition) => `${p.lastId}@${p.index}`,
  decode(position: string): CampaignPosition {
    const match = new RegExp(`^([1-9]\\d{0,15})@${INDEX}$`).exec(position);
    const lastId = Number(match?.[1]);
    if (!match || !Number.isSafeInteger(lastId)) throw badArgument('after', 'is not a campaign cursor');
    return { lastId, index: Number(match[2]) };
  },
};

/**
 * A position in a campaign's pins of one status: the index of the last code seen and a short
 * hash of it (codes are listed in upload order, not sorted, so the code finds its place again
 * when codes before it left the status; the code itself stays out of the cursor).
 */
export interface PinPosition {
  index: number;
  code: string;
}

export const pinCodeHash = (code: string) => createHash('sha256').update(code).digest('base64url').slice(0, 11);

export const pinPosition = {
  encode: (p: PinPosition) => `${p.index}@${pinCodeHash(p.code)}`,
  decode(position: string): { index: number; hash: string } {
    const match = new RegExp(`^${INDEX}@([A-Za-z0-9_-]{11})$`).exec(position);
    if (!match) throw badArgument('after', 'is not a pin cursor');
    return { index: Number(match[1]), hash: match[2]! };
  },
};

