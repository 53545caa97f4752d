import type { CampaignData, CampaignStatus, RedeemStatus } from '../campaign-api/index.js';
import { CODE_CAMPAIGN_TYPES } from '../campaign-api/index.js';
import { PinPool } from './pin-pool.js';

export type PartnerKind = 'store' | 'aggregator';

export interface Partner {
  readonly kind: PartnerKind;
  /** Ordered by ymCampaignId, since ids only grow and campaigns are never deleted. */
  readonly campaigns: Campaign[];
  readonly byPartnerCampaignId: Map<number, Campaign>;
}

/** The moderator's verdict, kept apart from the status (an aggregator's campaign runs while pending). */
export type Verdict = 'pending' | 'approved' | 'declined';

export interface Lead {
  readonly transactionId: string;
  /** The pin slot or the clickId the lead was reported for; a repeat must name the same one. */
  readonly pinSlot: number | null;
  readonly clickId: string | null;
  status: RedeemStatus;
  readonly report: Record<string, unknown>;
}

export interface Click {
  readonly viewId: string;
  /** The lead reported for this click, once there is one. */
  transactionId: string | null;
}

export class Campaign {
  status: CampaignStatus = 'moderation';
  verdict: Verdict = 'pending';
  declineReason: string | null = null;
  /** When auto moderation approves it; null while a manual decision is awaited. */
  moderationDueAt: number | null = null;
  /** Approved with a future campaignStart: waits in `paused` until then. */
  awaitingStart = false;
  /** Stopped by its partner while in moderation: approval leaves it paused. */
  holdOnApproval = false;
  startAt: number | null = null;
  endAt: number | null = null;

  readonly pins = new PinPool();
  shows = 0;
  /** Offers taken (pin or click) and not redeemed yet: the campaign's `campaignAccepts`. */
  openAccepts = 0;
  readonly clicks = new Map<string, Click>();
  clickSeq = 0;
  readonly leads = new Map<string, Lead>();
  readonly leadCounts: Record<RedeemStatus, number> = { used: 0, approved: 0, declined: 0 };

  /** Heap entry time last scheduled for this campaign (see Scheduler). */
  scheduledAt: number | null = null;
  /** The serialized campaigns/get answer, dropped whenever anything about the campaign changes. */
  cachedGet: string | null = null;

  constructor(
    readonly ymCampaignId: number,
    readonly owner: Partner,
    public data: CampaignData,
  ) {
    this.syncDates();
  }

  setData(data: CampaignData): void {
    this.data = data;
    this.syncDates();
  }

  private syncDates(): void {
    this.startAt = this.data.campaignStart ? Date.parse(this.data.campaignStart) : null;
    this.endAt = this.data.campaignEnd ? Date.parse(this.data.campaignEnd) : null;
  }

  get isCode(): boolean {
    return CODE_CAMPAIGN_TYPES.includes(this.data.campaignType ?? '');
  }

  /** Code campaigns with one-off pins are the only ones that need uploaded pins. */
  get usesOneOffPins(): boolean {
    return this.isCode && this.data.pinType === 'one-off';
  }

  get statusResult(): { ymCampaignId: number; campaignStatus: CampaignStatus } {
    return { ymCampaignId: this.ymCampaignId, campaignStatus: this.status };
  }
}
