import type { CampaignData } from '../campaign-api/index.js';
import { Campaign, type Partner, type PartnerKind } from './campaign.js';
import { EmulatorClock } from './clock.js';
import { CATEGORIES, DEMO_TOKENS, type Category } from './demo.js';
import { applyDue, nextEventAt, rescheduleModeration, type ModerationPolicy } from './lifecycle.js';
import { Scheduler } from './scheduler.js';

/**
 * Everything the emulator remembers: partners by token, campaigns by ymCampaignId, the
 * moderation policy and the clock. Request handlers and the admin API both work through it.
 */
export class EmulatorState {
  readonly clock = new EmulatorClock();
  readonly partners = new Map<string, Partner>();
  readonly campaigns = new Map<number, Campaign>();
  readonly categories: readonly Category[] = CATEGORIES;
  readonly categoryIds: ReadonlySet<number> = new Set(CATEGORIES.map((c) => c.categoryId));
  policy: ModerationPolicy;
  private nextId = 1;
  private readonly scheduler = new Scheduler();

  /** `seed` fills a fresh state (the fixtures), at start and at each reset. */
  constructor(
    private readonly defaultPolicy: ModerationPolicy,
    private readonly seed: (state: EmulatorState) => void,
  ) {
    this.policy = { ...defaultPolicy };
    this.reset();
  }

  /**
   * Back to the fixtures: campaigns, ids, clock and moderation policy. Partners registered
   * through the admin API stay registered, with no campaigns.
   */
  reset(): void {
    this.campaigns.clear();
    this.scheduler.clear();
    this.nextId = 1;
    this.clock.reset();
    this.policy = { ...this.defaultPolicy };
    for (const [token, partner] of this.partners) this.partners.set(token, emptyPartner(partner.kind));
    this.partners.set(DEMO_TOKENS.store, emptyPartner('store'));
    this.partners.set(DEMO_TOKENS.aggregator, emptyPartner('aggregator'));
    this.seed(this);
  }

  now(): number {
    return this.clock.now();
  }

  /** Applies every transition that came due on the emulator clock (before each request). */
  tick(): void {
    const now = this.clock.now();
    if (!this.scheduler.hasDue(now)) return;
    for (const campaign of this.scheduler.due(now)) {
      applyDue(campaign, now);
      this.changed(campaign);
    }
  }

  /** Must follow every change of a campaign: drops cached answers and reschedules it. */
  changed(campaign: Campaign): void {
    campaign.cachedGet = null;
    this.scheduler.schedule(campaign, nextEventAt(campaign));
  }

  partner(token: string): Partner | undefined {
    return this.partners.get(token);
  }

  /** false when the token is taken already. */
  registerPartner(token: string, kind: PartnerKind): boolean {
    if (this.partners.has(token)) return false;
    this.partners.set(token, emptyPartner(kind));
    return true;
  }

  addCampaign(owner: Partner, data: CampaignData): Campaign {
    const campaign = new Campaign(this.nextId++, owner, data);
    this.campaigns.set(campaign.ymCampaignId, campaign);
    owner.campaigns.push(campaign);
    owner.byPartnerCampaignId.set(data.partnerCampaignId, campaign);
    return campaign;
  }

  setPolicy(policy: ModerationPolicy): void {
    this.policy = policy;
    const now = this.clock.now();
    for (const campaign of this.campaigns.values()) {
      if (campaign.verdict !== 'pending') continue;
      rescheduleModeration(campaign, policy, now);
      this.changed(campaign);
    }
  }
}

function emptyPartner(kind: PartnerKind): Partner {
  return { kind, campaigns: [], byPartnerCampaignId: new Map() };
}
