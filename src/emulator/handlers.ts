import {
  CODE_CAMPAIGN_TYPES,
  campaignData,
  campaignUpdate,
  operations,
  pinProblem,
  fieldsReplacedBy,
  type CampaignData,
  type CampaignFieldName,
  type FieldIssue,
  type OperationName,
  campaignFieldShape,
} from '../campaign-api/index.js';
import { isMoney } from '../text/money.js';
import { quote } from '../text/received-value.js';
import { ApiFailure, fieldFailure, incorrectData } from './api-failure.js';
import type { Campaign } from './campaign.js';
import { goLive, sendToModeration } from './lifecycle.js';
import type { EmulatorState } from './state.js';
import { dedupe, issuesOf, parseOrFail } from './validation.js';
import { isObject, ownCampaign, parseWithId, success, type Handler } from './handler-kit.js';
import { redeem } from './leads.js';

export type { Handler } from './handler-kit.js';

/** Most pins one add-pins call may carry. */
export const MAX_PINS_PER_CALL = 10_000;

/** Two weeks: how long issued offers stay valid after the end unless offerDuration says otherwise. */
const DEFAULT_OFFER_HOURS = 14 * 24;

const WRITABLE_FIELDS = Object.keys(campaignFieldShape) as CampaignFieldName[];

/** Checks that need the emulator's state: a known category, an end that has not passed. */
function stateIssues(state: EmulatorState, data: Record<string, unknown>, now: number): FieldIssue[] {
  const issues: FieldIssue[] = [];
  const categoryId = data.categoryId;
  if (typeof categoryId === 'number' && Number.isInteger(categoryId) && categoryId > 0 && !state.categoryIds.has(categoryId)) {
    issues.push({ field: 'categoryId', message: `must be a category of categories/get, got ${categoryId}` });
  }
  if (typeof data.campaignEnd === 'string') {
    const end = Date.parse(data.campaignEnd);
    if (!Number.isNaN(end) && end <= now) {
      issues.push({
        field: 'campaignEnd',
        // The campaign API's clock, which the emulator's admin API may have moved on.
        message: `must be in the future: ${quote(data.campaignEnd)} has passed (it is now ${new Date(now).toISOString()})`,
      });
    }
  }
  return issues;
}

/** One-off pins already uploaded pin the campaign's kind: they could not be shown otherwise. */
function pinKindIssues(campaign: Campaign, next: Record<string, unknown>): FieldIssue[] {
  const held = campaign.pins.total;
  if (held === 0) return [];
  const why = `cannot change while the campaign holds ${held} one-off pins`;
  const issues: FieldIssue[] = [];
  if (!CODE_CAMPAIGN_TYPES.includes(String(next.campaignType))) issues.push({ field: 'campaignType', message: why });
  if (next.pinType !== 'one-off') issues.push({ field: 'pinType', message: why });
  if (next.pinDisplayType !== campaign.data.pinDisplayType) issues.push({ field: 'pinDisplayType', message: why });
  return issues;
}

function sameDiscountAmount(a: string | undefined, b: string | undefined): boolean {
  if (a === b) return true;
  return a !== undefined && b !== undefined && isMoney(a) && isMoney(b) && Number(a) === Number(b);
}

const create: Handler = (state, partner, body) => {
  const now = state.now();
  const extra = isObject(body) ? stateIssues(state, body, now) : [];
  const data = parseOrFail(campaignData, body, extra) as CampaignData;
  const existing = partner.byPartnerCampaignId.get(data.partnerCampaignId);
  if (existing) {
    // Create again: the same discount replaces the data, another one is refused.
    if (!sameDiscountAmount(existing.data.discountAmount, data.discountAmount)) {
      throw new ApiFailure(
        'repeatCampaignData',
        `campaign ${existing.ymCampaignId} already has partnerCampaignId ${data.partnerCampaignId} with discountAmount ${quote(existing.data.discountAmount ?? '')}, got ${quote(data.discountAmount ?? '')}; change it with campaigns/update`,
        [{ field: 'discountAmount', message: `must stay ${quote(existing.data.discountAmount ?? '')}, the discountAmount of campaign ${existing.ymCampaignId} with partnerCampaignId ${data.partnerCampaignId}, got ${quote(data.discountAmount ?? '')}; change the discount with campaigns/update` }],
      );
    }
    const pinIssues = pinKindIssues(existing, data);
    if (pinIssues.length) throw incorrectData(pinIssues);
    existing.setData(data);
    sendToModeration(existing, state.policy, now);
    state.changed(existing);
    return success(existing.statusResult);
  }
  const campaign = state.addCampaign(partner, data);
  sendToModeration(campaign, state.policy, now);
  // An aggregator's campaign without a start date goes live at upload, moderated afterwards.
  if (partner.kind === 'aggregator' && campaign.startAt === null) goLive(campaign);
  state.changed(campaign);
  return success(campaign.statusResult);
};

/** Whether a campaignEnd is set and still ahead of `now`. */
function endAhead(end: unknown, now: number): boolean {
  return typeof end === 'string' && Date.parse(end) > now;
}

const update: Handler = (state, partner, body) => {
  const now = state.now();
  const sentIssues = issuesOf(campaignUpdate, body).map((issue) =>
    issue.field === 'partnerCampaignId' && issue.message === 'is required'
      ? { field: issue.field, message: 'is required: campaigns/update is keyed by the partnerCampaignId the campaign was created with' }
      : issue,
  );
  const key = isObject(body) ? body.partnerCampaignId : undefined;
  const campaign = typeof key === 'number' ? partner.byPartnerCampaignId.get(key) : undefined;
  if (!campaign) {
    if (sentIssues.length) throw incorrectData(sentIssues);
    throw new ApiFailure('campaignNotFound', `no campaign with partnerCampaignId ${String(key)} for this partner`);
  }
  const sent = body as Record<string, unknown>;
  // Only the fields sent change; null clears an optional one.
  const merged: Record<string, unknown> = { ...campaign.data };
  for (const field of fieldsReplacedBy(sent)) delete merged[field];
  for (const field of WRITABLE_FIELDS) {
    if (sent[field] === null) delete merged[field];
    else if (sent[field] !== undefined) merged[field] = sent[field];
  }
  // A finished campaign comes back only with an end ahead; anything else is refused as finished,
  // not as a bad campaignEnd that the caller may never have sent.
  const badEnd = sentIssues.some((issue) => issue.field === 'campaignEnd');
  if (campaign.status === 'finished' && !badEnd && !endAhead(merged.campaignEnd, now)) {
    throw new ApiFailure(
      'failFinished',
      `campaign ${campaign.ymCampaignId} is finished (its campaignEnd has passed); an update revives it only together with a campaignEnd in the future`,
      undefined,
      campaign.statusResult,
    );
  }
  // The merged record must be a whole valid campaign. A sent field with a problem of its own is
  // reported once, by that problem (a cleared description is not also "required").
  const sentFields = new Set(sentIssues.map((issue) => issue.field));
  const mergedIssues = [...issuesOf(campaignData, merged), ...stateIssues(state, merged, now), ...pinKindIssues(campaign, merged)];
  const issues = dedupe([...sentIssues, ...mergedIssues.filter((issue) => !sentFields.has(issue.field))]);
  if (issues.length) throw incorrectData(issues);
  campaign.setData(campaignData.parse(merged) as CampaignData);
  sendToModeration(campaign, state.policy, now);
  state.changed(campaign);
  return success(campaign.statusResult);
};

function detailsOf(c: Campaign): Record<string, unknown> {
  const d = c.data;
  const out: Record<string, unknown> = {
    ymCampaignId: c.ymCampaignId,
    campaignStatus: c.status,
    partnerCampaignId: d.partnerCampaignId,
    categoryId: d.categoryId,
    campaignType: d.campaignType,
  };
  for (const field of WRITABLE_FIELDS) {
    if (field in out) continue;
    const value = d[field];
    if (value !== undefined) out[field] = value;
  }
  out.discountCurrency = d.discountCurrency ?? 643;
  out.feeCurrency = d.feeCurrency ?? 643;
  const pinEnd = pinEndOf(c);
  if (pinEnd) out.pinEnd = pinEnd;
  return out;
}

/** Offers issued before the end stay valid for offerDuration hours, two weeks by default. */
function pinEndOf(c: Campaign): string | undefined {
  if (c.data.offerEnd) return c.data.offerEnd;
  if (c.endAt === null) return undefined;
  return new Date(c.endAt + (c.data.offerDuration ?? DEFAULT_OFFER_HOURS) * 3_600_000).toISOString();
}

const get: Handler = (state, partner, body) => {
  const { ymCampaignId } = parseWithId(operations.get.request, body);
  const campaign = ownCampaign(state, partner, ymCampaignId);
  return (campaign.cachedGet ??= success(detailsOf(campaign)));
};

const info: Handler = (state, partner, body) => {
  const { ymCampaignId } = parseWithId(operations.info.request, body);
  const c = ownCampaign(state, partner, ymCampaignId);
  return success({
    ymCampaignId: c.ymCampaignId,
    campaignStatus: c.status,
    campaignAccepts: c.openAccepts,
    campaignRedeems: c.leads.size,
    campaignShows: c.shows,
    campaignPinsStats: { unused: c.pins.unusedCount, total: c.pins.total },
    campaignRedeemStats: {
      usedCount: c.leadCounts.used,
      approvedCount: c.leadCounts.approved,
      declinedCount: c.leadCounts.declined,
    },
  });
};

const start: Handler = (state, partner, body) => {
  const { ymCampaignId } = parseWithId(operations.start.request, body);
  const c = ownCampaign(state, partner, ymCampaignId);
  const refuse = (code: string, message: string) => new ApiFailure(code, message, undefined, c.statusResult);
  switch (c.status) {
    case 'finished':
      throw refuse('failFinished', `campaign ${c.ymCampaignId} is finished (its campaignEnd has passed) and cannot be started`);
    case 'moderation':
      throw refuse('failModerator', `campaign ${c.ymCampaignId} awaits moderation and starts once the moderator approves it`);
    case 'declined':
      throw refuse('failModerator', `campaign ${c.ymCampaignId} was declined by the moderator; change it with campaigns/update to send it to moderation again`);
    case 'started':
      return success(c.statusResult);
    default:
      if (c.usesOneOffPins && c.pins.unusedCount === 0) {
        throw refuse('failPin', `campaign ${c.ymCampaignId} has no unused pins (pinType one-off); upload pins with campaigns/add-pins first`);
      }
      c.status = 'started';
      c.awaitingStart = false;
      state.changed(c);
      return success(c.statusResult);
  }
};

const stop: Handler = (state, partner, body) => {
  const { ymCampaignId } = parseWithId(operations.stop.request, body);
  const c = state.campaigns.get(ymCampaignId);
  if (!c) throw new ApiFailure('campaignNotFound', `no campaign with ymCampaignId ${ymCampaignId}`);
  if (c.owner !== partner) {
    throw new ApiFailure('failMerchant', `campaign ${ymCampaignId} belongs to another partner; only its creator may stop it`, undefined, c.statusResult);
  }
  if (c.status === 'finished') {
    throw new ApiFailure('failFinished', `campaign ${ymCampaignId} is finished (in the archive) and cannot be stopped`, undefined, c.statusResult);
  }
  if (c.status === 'moderation') {
    // It keeps its status; the approval then leaves it paused instead of starting it.
    c.holdOnApproval = true;
  } else if (c.status !== 'declined') {
    c.status = 'paused';
    c.awaitingStart = false;
  }
  state.changed(c);
  return `{"status":"success","errors":{},"result":${JSON.stringify(c.statusResult)}}`;
};

const addPins: Handler = (state, partner, body) => {
  if (isObject(body) && Array.isArray(body.pinList) && body.pinList.length > MAX_PINS_PER_CALL) {
    throw fieldFailure('pinList', `takes at most ${MAX_PINS_PER_CALL} pins per call, got ${body.pinList.length}; upload them in several calls`);
  }
  const { ymCampaignId, pinList } = parseWithId(operations.addPins.request, body);
  const c = ownCampaign(state, partner, ymCampaignId);
  if (!c.usesOneOffPins) {
    const kind = c.isCode ? `campaignType ${c.data.campaignType} with pinType ${c.data.pinType}` : `campaignType ${c.data.campaignType}`;
    throw fieldFailure('pinList', `takes pins only for campaignType codeOnline or codeOffline with pinType one-off; campaign ${c.ymCampaignId} is ${kind}`);
  }
  const displayType = c.data.pinDisplayType ?? 'text';
  const issues: FieldIssue[] = [];
  for (let i = 0; i < pinList.length; i++) {
    const problem = pinProblem(pinList[i]!, displayType);
    if (problem) issues.push({ field: `pinList[${i}]`, message: problem });
  }
  if (issues.length) {
    throw incorrectData(issues, `${issues.length} of ${pinList.length} pins do not fit pinDisplayType ${displayType}; no pin was added`);
  }
  c.pins.add(pinList);
  if (c.status === 'pin-required' && c.pins.unusedCount > 0) c.status = 'started';
  state.changed(c);
  return success({
    ymCampaignId: c.ymCampaignId,
    campaignStatus: c.status,
    counters: {
      unusedPinCount: c.pins.unusedCount,
      acceptedPinCount: c.pins.acceptedCount,
      redeemedPinCount: c.pins.redeemedCount,
      totalPinCount: c.pins.total,
    },
  });
};

const getAllCampaigns: Handler = (_state, partner, body) => {
  const { limit, offset } = parseOrFail(operations.getAllCampaigns.request, body);
  const all = partner.campaigns;
  const page = all.slice(offset, offset + limit).map((c) => c.statusResult);
  return `{"status":"success","total":${all.length},"campaigns":${JSON.stringify(page)}}`;
};

const getPinsByStatus: Handler = (state, partner, body) => {
  const { ymCampaignId, pinStatus } = parseWithId(operations.getPinsByStatus.request, body);
  const c = ownCampaign(state, partner, ymCampaignId);
  return success({ ymCampaignId, pinStatus, pins: c.pins.list(pinStatus) });
};

let categoriesAnswer: string | null = null;
const getCategories: Handler = (state, _partner, body) => {
  parseOrFail(operations.getCategories.request, body);
  return (categoriesAnswer ??= success({ categories: state.categories }));
};

export const handlers: Record<OperationName, Handler> = {
  create,
  update,
  get,
  info,
  start,
  stop,
  redeem,
  addPins,
  getAllCampaigns,
  getPinsByStatus,
  getCategories,
};
