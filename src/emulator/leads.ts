import { operations, redeemRequest, type FieldIssue, type RedeemStatus } from '../campaign-api/index.js';
import { isMoney } from '../text/money.js';
import { quote } from '../text/received-value.js';
import { fieldFailure, incorrectData } from './api-failure.js';
import type { Lead } from './campaign.js';
import { ownCampaign, parseWithId, success, type Handler } from './handler-kit.js';

/** What a repeated report is compared on: everything but the keys, the campaign's pin or click, and the status. */
const COMPARED_REPORT_FIELDS = Object.keys(redeemRequest.shape).filter(
  (f) => !['ymCampaignId', 'transactionId', 'pinContent', 'clickId', 'redeemStatus'].includes(f),
);
const MONEY_REPORT_FIELDS = new Set(['campaignFee', 'orderAmount', 'cashbackAmount']);
/** Optional currencies mean roubles, so leaving one out equals sending 643. */
const CURRENCY_REPORT_FIELDS = new Set(['feeCurrency', 'orderCurrency']);

function sameReportValue(field: string, a: unknown, b: unknown): boolean {
  if (CURRENCY_REPORT_FIELDS.has(field)) return (a ?? 643) === b;
  if (a === b) return true;
  if (typeof a !== 'string' || typeof b !== 'string') return false;
  // The same amount or instant written another way ("150" and "150.00") is the same report.
  if (MONEY_REPORT_FIELDS.has(field)) return isMoney(a) && isMoney(b) && Number(a) === Number(b);
  if (field === 'redeemTime') return Date.parse(a) === Date.parse(b);
  return false;
}

/**
 * Where a report repeated with a known transactionId differs from the first one. Only
 * redeemStatus may change; anything else would be silently dropped otherwise. An optional field
 * left out of the repeat keeps the first report's value: a store moving a lead on sends the keys
 * and the new status, and need not restate every amount it gave the first time.
 */
function reportDifferences(first: Record<string, unknown>, again: Record<string, unknown>, transactionId: string): FieldIssue[] {
  const issues: FieldIssue[] = [];
  const rule = 'a report repeated with the same transactionId may change only redeemStatus (a field left out keeps its first value)';
  const was = (value: unknown) => (value === undefined ? 'absent' : typeof value === 'string' ? JSON.stringify(value) : 'another value');
  const compare = (field: string, a: unknown, b: unknown) => {
    if (b === undefined || sameReportValue(field, a, b)) return;
    const values = typeof a === 'string' || typeof b === 'string' ? ` (${was(a)} then, ${was(b)} now)` : '';
    issues.push({ field, message: `differs from the first report of transactionId ${JSON.stringify(transactionId)}${values}; ${rule}` });
  };
  for (const field of COMPARED_REPORT_FIELDS) {
    if (field === 'bonusDescription') {
      const category = (report: Record<string, unknown>) => (report.bonusDescription as { category?: string } | undefined)?.category;
      compare('bonusDescription.category', category(first), category(again));
    } else {
      compare(field, first[field], again[field]);
    }
  }
  return issues;
}

/** Lead status moves allowed after the first report: a lead used may be approved or declined, an approved one returned. */
const LEAD_MOVES: Record<RedeemStatus, readonly RedeemStatus[]> = {
  used: ['approved', 'declined'],
  approved: ['declined'],
  declined: [],
};

/** campaigns/redeem: a lead reported, or moved on by a repeat with the same transactionId. */
export const redeem: Handler = (state, partner, body) => {
  const request = parseWithId(operations.redeem.request, body);
  const c = ownCampaign(state, partner, request.ymCampaignId);
  const byPin = c.usesOneOffPins;
  const keyField = byPin ? 'pinContent' : 'clickId';
  const keyValue = byPin ? request.pinContent : request.clickId;
  if (keyValue === undefined) {
    throw fieldFailure(
      keyField,
      byPin
        ? `is required for campaignType ${c.data.campaignType} with pinType one-off: send the pin the user took`
        : `is required for campaignType ${c.data.campaignType}${c.isCode ? ' with pinType reusable' : ''}: send the clickId appended to its acceptUrl`,
    );
  }
  const status: RedeemStatus = request.redeemStatus ?? 'used';
  const { ymCampaignId, transactionId } = request;
  const { pinContent: _p, clickId: _c, ...report } = request;
  void _p;
  void _c;
  const answer = success({ ymCampaignId, transactionId, state: 'processing' });

  const known = c.leads.get(transactionId);
  if (known) {
    const samePin = byPin ? c.pins.find(keyValue)?.slot === known.pinSlot : keyValue === known.clickId;
    if (!samePin) {
      throw fieldFailure(keyField, `must be the ${keyField} of the first report of transactionId ${quote(transactionId)}, which was for another ${byPin ? 'pin' : 'clickId'}`);
    }
    const differences = reportDifferences(known.report, report, transactionId);
    if (differences.length) throw incorrectData(differences);
    if (known.status === status) return answer;
    if (!LEAD_MOVES[known.status].includes(status)) {
      throw fieldFailure(
        'redeemStatus',
        `cannot move the lead of transactionId ${quote(transactionId)} from redeemStatus ${known.status} to redeemStatus ${status}: a lead moves from redeemStatus used to redeemStatus approved or declined, and from redeemStatus approved to redeemStatus declined`,
      );
    }
    c.leadCounts[known.status]--;
    c.leadCounts[status]++;
    known.status = status;
    state.changed(c);
    return answer;
  }

  let lead: Lead;
  if (byPin) {
    const pin = c.pins.find(keyValue);
    if (!pin) throw fieldFailure('pinContent', `is not a pin of campaign ${c.ymCampaignId}`);
    if (pin.status === 'new_unused') throw fieldFailure('pinContent', 'has not been taken by a user yet (status new_unused)');
    if (pin.status === 'redeem_received') throw fieldFailure('pinContent', 'was already redeemed in another transaction');
    c.pins.markRedeemed(pin.slot);
    lead = { transactionId, pinSlot: pin.slot, clickId: null, status, report };
  } else {
    const click = c.clicks.get(keyValue);
    if (!click) throw fieldFailure('clickId', `was not issued for campaign ${c.ymCampaignId}: clickIds come with the acceptUrl of a taken offer`);
    if (click.transactionId !== null) {
      throw fieldFailure('clickId', `was already reported with transactionId ${quote(click.transactionId)}`);
    }
    click.transactionId = transactionId;
    lead = { transactionId, pinSlot: null, clickId: keyValue, status, report };
  }
  c.leads.set(transactionId, lead);
  c.leadCounts[status]++;
  c.openAccepts--;
  state.changed(c);
  return answer;
};
