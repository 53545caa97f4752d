import { GraphQLError } from 'graphql';
import type { GraphQLContext, LiveSource } from '../schema/context.js';
import { known } from '../campaigns/backend-values.js';
import { badArgument, noTokenError } from '../graphql/errors.js';
import type { CampaignStatusEventResolvers, SubscriptionResolvers } from '../schema/generated/resolvers-types.js';
import type { Loaders } from '../campaigns/loaders.js';
import { parseCampaignId } from '../campaigns/campaign-id.js';
import { statusValue, type StatusEvent } from './events.js';
import { LiveErrorCode, type TokenCheck, type WatchItem } from './hub.js';
import { quote } from '../campaign-api/index.js';


function parseIds(ids: readonly string[], maxIds: number): ReadonlySet<number> {
  if (ids.length > maxIds) {
    throw new GraphQLError(`Argument "ids" has ${ids.length} ids; a subscription may watch at most ${maxIds} (omit ids to watch every campaign).`, {
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

function notOverHttp(): GraphQLError {
  return new GraphQLError(
    'Subscriptions are served over WebSocket (graphql-ws) at /graphql and over SSE (graphql-sse) at /graphql/stream, not over a plain HTTP request.',
    { extensions: { code: 'BAD_REQUEST' } },
  );
}

export const Subscription: SubscriptionResolvers = {
  campaignChanged: {
    async subscribe(_root, { ids }, ctx) {
      if (!ctx.live) throw notOverHttp();
      if (ctx.token === null) throw noTokenError(ctx.tokenProblem);
      const watched = ids == null ? null : parseIds(ids, ctx.live.maxIds);
      // Checked per subscription too: a connection outlives the check made when it opened.
      if ((await ctx.live.verify(ctx.token)) === 'invalid') {
        throw new GraphQLError('The campaign API did not accept the partner token. Send a valid token as "Bearer <token>".', {
          extensions: { code: 'UNAUTHENTICATED' },
        });
      }
      return ctx.live.watch(ctx.token, watched);
    },
    resolve(item: WatchItem | undefined, _args: unknown, ctx: GraphQLContext) {
      // A subscription sent as a plain POST is executed once, without any event.
      if (item === undefined || !ctx.live) throw notOverHttp();
      if ('failure' in item) throw item.failure;
      // Loaders cache for one request; here each event is one, or a later event would show the
      // campaign as an earlier one loaded it. The event's subscribers share them: a thousand
      // watchers asking for `campaign { merchant { name } }` cost one read of the campaign.
      ctx.loaders = ctx.live.loadersFor(item, ctx.token!);
      return item;
    },
  },
};

export const CampaignStatusEvent: CampaignStatusEventResolvers = {
  campaign: (event) => ({ id: event.id, status: statusValue(event.status) }),
  previousStatus: (event) => (event.previousStatus === null ? null : known(statusValue(event.previousStatus))),
  status: (event) => known(statusValue(event.status)),
  at: (event) => event.at,
};
