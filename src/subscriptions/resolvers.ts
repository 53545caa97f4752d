import type { GraphQLContext, LiveSource } from '../schema/context.js';
import { known } from '../campaigns/backend-values.js';
import { badArgument, clientError, noTokenError } from '../graphql/errors.js';
import type { CampaignStatusEventResolvers, SubscriptionResolvers } from '../schema/generated/resolvers-types.js';
import { parseCampaignId } from '../campaigns/campaign-id.js';
import { campaignRef } from '../campaigns/campaign-ref.js';
import { statusValue } from './events.js';
import { LiveErrorCode } from './hub.js';
import type { WatchItem } from '../schema/models.js';
import { quote } from '../text/received-value.js';

function parseIds(ids: readonly string[], maxIds: number): ReadonlySet<number> {
  if (ids.length > maxIds) {
    throw clientError(`Argument "ids" has ${ids.length} ids; a subscription may watch at most ${maxIds} (omit ids to watch every campaign).`, {
      extensions: { code: LiveErrorCode.SUBSCRIPTION_LIMIT_EXCEEDED, limit: 'ids', max: maxIds },
    });
  }
  const set = new Set<number>();
  for (const id of ids) {
    const n = parseCampaignId(id);
    if (n === null) throw badArgument('ids', `must hold campaign ids (Campaign.id), got ${quote(id)}.`);
    set.add(n);
  }
  return set;
}

/**
 * Live status, which only the WebSocket and SSE paths put in a context: the pipeline refuses a
 * subscription sent over POST or GET before anything runs (pipeline/rules.ts, operationTypes), so
 * a context without it here is a bug of the paths, not a client's mistake.
 */
function liveOf(ctx: GraphQLContext): LiveSource {
  if (!ctx.live) throw new Error('campaignChanged ran without live status: only the WebSocket and SSE paths execute subscriptions');
  return ctx.live;
}

export const Subscription: SubscriptionResolvers = {
  campaignChanged: {
    subscribe(_root, { ids }, ctx) {
      const live = liveOf(ctx);
      if (ctx.token === null) throw noTokenError(ctx.tokenProblem);
      // The token was checked for this subscription by the pipeline (who a stream is for).
      const watched = ids == null ? null : parseIds(ids, live.maxIds);
      return live.watch(ctx.token, watched);
    },
    resolve(item: WatchItem, _args: unknown, ctx: GraphQLContext) {
      if ('failure' in item) throw item.failure;
      // Loaders cache for one request; here each event is one, or a later event would show the
      // campaign as an earlier one loaded it. The event's subscribers share them: a thousand
      // watchers asking for `campaign { merchant { name } }` cost one read of the campaign.
      ctx.loaders = liveOf(ctx).loadersFor(item, ctx.token!);
      return item;
    },
  },
};

export const CampaignStatusEvent: CampaignStatusEventResolvers = {
  campaign: (event) => campaignRef(event.id, statusValue(event.status)),
  previousStatus: (event) => (event.previousStatus === null ? null : known(statusValue(event.previousStatus))),
  status: (event) => known(statusValue(event.status)),
  at: (event) => event.at,
};
