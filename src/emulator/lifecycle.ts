import type { Campaign } from './campaign.js';

/**
 * The campaign state machine, as docs/adr/rest-reference.md reads the REST API's. Functions here change
 * one campaign and know nothing of HTTP; times are emulator-clock milliseconds.
 */

export interface ModerationPolicy {
  mode: 'auto' | 'manual';
  /** Auto mode: how long after a submission the moderator approves it. */
  delayMs: number;
}

export const DEFAULT_MODERATION_DELAY_MS = 1500;

/** A new or changed campaign goes to the moderator (create, update, create again). */
export function sendToModeration(c: Campaign, policy: ModerationPolicy, now: number): void {
  c.status = 'moderation';
  c.verdict = 'pending';
  c.declineReason = null;
  c.awaitingStart = false;
  c.holdOnApproval = false;
  c.moderationDueAt = policy.mode === 'auto' ? now + policy.delayMs : null;
}

/** Auto mode applies to what is pending now; manual mode leaves every pending campaign waiting. */
export function rescheduleModeration(c: Campaign, policy: ModerationPolicy, now: number): void {
  if (c.verdict !== 'pending' || c.status === 'finished') return;
  c.moderationDueAt = policy.mode === 'auto' ? now + policy.delayMs : null;
}

/**
 * Going live by itself (approval, schedule, an aggregator's upload): a one-off code campaign
 * without unused pins cannot run and waits in pin-required.
 */
export function goLive(c: Campaign): void {
  c.awaitingStart = false;
  c.status = c.usesOneOffPins && c.pins.unusedCount === 0 ? 'pin-required' : 'started';
}

export function approve(c: Campaign, at: number): void {
  c.verdict = 'approved';
  c.moderationDueAt = null;
  c.declineReason = null;
  // An aggregator's campaign already runs (or was stopped) while pending: the verdict changes only.
  if (c.status !== 'moderation') return;
  if (c.holdOnApproval) {
    c.holdOnApproval = false;
    c.status = 'paused';
  } else if (c.startAt !== null && c.startAt > at) {
    // "Verified" is not a status the API returns: it reads paused until its start time.
    c.status = 'paused';
    c.awaitingStart = true;
  } else {
    goLive(c);
  }
}

export function decline(c: Campaign, reason: string | null): void {
  c.verdict = 'declined';
  c.moderationDueAt = null;
  c.declineReason = reason;
  c.awaitingStart = false;
  c.holdOnApproval = false;
  c.status = 'declined';
}

export function finish(c: Campaign): void {
  c.status = 'finished';
  c.awaitingStart = false;
  c.moderationDueAt = null;
}

type EventKind = 'moderation' | 'start' | 'end';

function nextEvent(c: Campaign): { at: number; kind: EventKind } | null {
  if (c.status === 'finished') return null;
  let best: { at: number; kind: EventKind } | null = null;
  // Candidates in priority order, so a tie resolves moderation, then start, then end.
  if (c.verdict === 'pending' && c.moderationDueAt !== null) best = { at: c.moderationDueAt, kind: 'moderation' };
  if (c.awaitingStart && c.status === 'paused' && c.startAt !== null && (!best || c.startAt < best.at)) {
    best = { at: c.startAt, kind: 'start' };
  }
  if (c.endAt !== null && (!best || c.endAt < best.at)) best = { at: c.endAt, kind: 'end' };
  return best;
}

/** When this campaign next changes by itself, or null if it never will without a call. */
export function nextEventAt(c: Campaign): number | null {
  return nextEvent(c)?.at ?? null;
}

/** Applies, in time order, every transition of this campaign that is due by `now`. */
export function applyDue(c: Campaign, now: number): void {
  for (let guard = 0; guard < 8; guard++) {
    const event = nextEvent(c);
    if (!event || event.at > now) return;
    if (event.kind === 'moderation') approve(c, event.at);
    else if (event.kind === 'start') goLive(c);
    else finish(c);
  }
}
