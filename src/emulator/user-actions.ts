import { AdminError } from './admin-error.js';
import type { Campaign } from './campaign.js';
import { approve, decline } from './lifecycle.js';
import type { EmulatorState } from './state.js';

/**
 * What end users and the moderator do to a campaign. The admin API exposes these, and the
 * fixtures use them, so fixture statistics come about the way real ones do.
 */

export type AcceptAnswer =
  | { pin: string }
  | { acceptUrl?: string; clickId: string; viewId: string; couponCode?: string };

function mustBeShown(c: Campaign, what: string): void {
  if (c.status !== 'started') {
    throw new AdminError(409, `campaign ${c.ymCampaignId} is ${c.status}; users can only ${what} a started campaign`);
  }
}

export function showOffer(state: EmulatorState, c: Campaign): { ymCampaignId: number; campaignShows: number } {
  mustBeShown(c, 'see');
  c.shows++;
  state.changed(c);
  return { ymCampaignId: c.ymCampaignId, campaignShows: c.shows };
}

/**
 * A user takes the offer: the oldest unused one-off pin, or a tracked click on acceptUrl.
 * Taking the last unused pin moves a started campaign to pin-required.
 */
export function acceptOffer(state: EmulatorState, c: Campaign): AcceptAnswer {
  mustBeShown(c, 'take the offer of');
  if (c.usesOneOffPins) {
    const pin = c.pins.take();
    if (pin === undefined) throw new AdminError(409, `campaign ${c.ymCampaignId} has no unused pins`);
    c.openAccepts++;
    if (c.pins.unusedCount === 0) c.status = 'pin-required';
    state.changed(c);
    return { pin };
  }
  const n = ++c.clickSeq;
  const clickId = `click-${c.ymCampaignId}-${n}`;
  const viewId = `view-${c.ymCampaignId}-${n}`;
  c.clicks.set(clickId, { viewId, transactionId: null });
  c.openAccepts++;
  state.changed(c);
  const answer: AcceptAnswer = { clickId, viewId };
  if (c.data.acceptUrl) {
    const url = new URL(c.data.acceptUrl);
    url.searchParams.set('clickId', clickId);
    url.searchParams.set('viewId', viewId);
    answer.acceptUrl = url.toString();
  }
  if (c.data.couponCode !== undefined) answer.couponCode = c.data.couponCode;
  return answer;
}

export function moderateCampaign(state: EmulatorState, c: Campaign, decision: 'approve' | 'decline', reason: string | null): void {
  if (c.verdict !== 'pending' || c.status === 'finished') {
    const why = c.status === 'finished' ? 'is finished' : `was already ${c.verdict}`;
    throw new AdminError(409, `campaign ${c.ymCampaignId} ${why}; only a pending campaign can be moderated (update it to send it again)`);
  }
  if (decision === 'approve') approve(c, state.now());
  else decline(c, reason);
  state.changed(c);
}
