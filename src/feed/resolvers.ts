import { UnauthenticatedError } from '../campaign-api/index.js';
import { quote } from '../text/received-value.js';
import { checkedLocale } from '../campaigns/discount-label.js';
import { badArgument, clientError, noTokenError } from '../graphql/errors.js';
import type {
  OfferConnectionResolvers,
  OfferEdgeResolvers,
  OfferFeedCategoryResolvers,
  OfferResolvers,
  QueryResolvers,
} from '../schema/generated/resolvers-types.js';
import { createCursors, pageSize, parsePositiveId, type CursorScope, type Cursors } from '../graphql/pagination.js';
import { cardOf } from '../campaigns/resolvers/campaign-card.js';
import { sharedPinSettingsOf } from '../campaigns/resolvers/campaign-pin-settings.js';
import { cashbackOf } from '../campaigns/resolvers/campaign-cashback.js';
import { known } from '../campaigns/backend-values.js';
import { offerNodeId } from '../campaigns/campaign-id.js';
import type { FeedItem, OfferFeedCategoryModel, OfferModel, OfferPage } from '../schema/offers.js';

const DEFAULT_PAGE = 20;
const MAX_PAGE = 100;

/**
 * Cursors name the last campaign seen (the feed is ordered by campaign id, newest first), so a
 * page read after the feed changed continues where the last one ended, without repeats or gaps.
 * They are signed as the partner API's cursors are (graphql/pagination.ts), over the partner set and the
 * filters, with `CURSOR_SECRET` or else a key of this process: a cursor of another feed or
 * filter, or one made or changed by anyone else, is refused, and nothing in a cursor lets its
 * holder test a guess of a partner token.
 */
function afterId(cursors: Cursors, scope: CursorScope, after: string): number {
  const position = cursors.decode(scope, after);
  if (!/^[1-9]\d{0,15}$/.test(position) || !Number.isSafeInteger(Number(position))) throw badArgument('after', 'is not a cursor of offerFeed');
  return Number(position);
}

/** Offers without a platform list are shown everywhere. */
function shownOn(item: FeedItem, platform: string): boolean {
  const list = item.record.supportedPlatforms;
  return !list || list.split(',').some((p) => p.trim() === platform);
}

export const offerFeedQuery: Pick<QueryResolvers, 'offerFeed'> = {
  offerFeed: async (_root, { first, after, categoryId, platform, locale }, ctx) => {
    const apps = ctx.apps;
    if (!apps) throw clientError('The offer feed is not configured on this server.', { extensions: { code: 'INTERNAL_SERVER_ERROR' } });
    const tokens = apps.app ? apps.app.partnerTokens : ctx.token ? [ctx.token] : null;
    if (!tokens) throw noTokenError(ctx.tokenProblem);
    const size = pageSize(first, DEFAULT_PAGE, MAX_PAGE);
    const tag = locale == null ? null : checkedLocale(locale);
    let category: number | null = null;
    if (categoryId != null) {
      category = parsePositiveId(categoryId);
      if (category === null) throw badArgument('categoryId', `must be a category id (Category.id, a positive integer), got ${quote(categoryId)}`);
    }

    let view;
    try {
      view = await apps.feed.read(tokens);
    } catch (error) {
      // The app's tokens are the server's configuration, not the caller's: say so, not "send a token".
      if (apps.app && error instanceof UnauthenticatedError) {
        throw clientError(
          `The campaign API does not accept the partner token configured for the app "${apps.app.name}"; the server's operators must fix APP_KEYS_FILE.`,
          { extensions: { code: 'APP_KEY_MISCONFIGURED' } },
        );
      }
      throw error;
    }
    // The answer holds while the feed it was cut from is the one served; a stale or incomplete
    // feed says so in the answer's `extensions.feed`, and such an answer is not remembered.
    const version = view.version;
    ctx.response?.depends({ fresh: () => apps.feed.peekVersion(tokens) === version, until: view.freshUntil });
    if (view.stale || view.incomplete) {
      ctx.response?.extend('feed', (previous) => {
        const was = previous as { stale: boolean; builtAt: string; incomplete?: true } | undefined;
        const builtAt = Math.min(view.builtAt, was ? Date.parse(was.builtAt) : Infinity);
        const incomplete = view.incomplete || was?.incomplete === true;
        return { stale: view.stale || was?.stale === true, builtAt: new Date(builtAt).toISOString(), ...(incomplete ? { incomplete: true } : {}) };
      });
    }

    const tabs = platform ? view.items.filter((item) => shownOn(item, platform)) : view.items;
    const matching = category === null ? tabs : tabs.filter((item) => item.categoryId === category);
    const cursors = createCursors(view.setKey, apps.cursorSecret);
    const scope: CursorScope = { connection: 'offerFeed', filter: `${category ?? ''}|${platform ?? ''}`, boundTo: 'the `categoryId` and `platform` arguments' };
    let start = 0;
    if (after != null) {
      const id = afterId(cursors, scope, after);
      start = matching.findIndex((item) => item.id < id);
      if (start === -1) start = matching.length;
    }
    return { items: matching.slice(start, start + size), start, totalCount: matching.length, tabs, cursors, scope, locale: tag } satisfies OfferPage;
  },
};

const offersOf = (page: OfferPage): OfferModel[] => page.items.map((item) => ({ item, locale: page.locale }));

export const OfferConnection: OfferConnectionResolvers = {
  totalCount: (page) => page.totalCount,
  nodes: (page) => offersOf(page),
  edges: (page) => offersOf(page).map((node) => ({ cursor: page.cursors.encode(page.scope, String(node.item.id)), node })),
  pageInfo: (page) => {
    const count = page.items.length;
    return {
      hasNextPage: page.start + count < page.totalCount,
      hasPreviousPage: page.start > 0,
      startCursor: count ? page.cursors.encode(page.scope, String(page.items[0]!.id)) : null,
      endCursor: count ? page.cursors.encode(page.scope, String(page.items[count - 1]!.id)) : null,
    };
  },
  categories: async (page, _args, ctx) => {
    const counts = new Map<number, number>();
    for (const item of page.tabs) if (item.categoryId !== null) counts.set(item.categoryId, (counts.get(item.categoryId) ?? 0) + 1);
    if (counts.size === 0) return [];
    const directory = await ctx.categories.list();
    return directory
      .filter((c) => counts.has(c.categoryId))
      .map((c): OfferFeedCategoryModel => ({ categoryId: c.categoryId, categoryName: c.categoryName, offerCount: counts.get(c.categoryId)! }));
  },
};

export const OfferEdge: OfferEdgeResolvers = {};

export const Offer: OfferResolvers = {
  id: (offer) => offerNodeId(offer.item.id),
  ymCampaignId: (offer) => offer.item.id,
  card: (offer) => cardOf(offer.item.record, offer.locale),
  category: async (offer, _args, ctx) => (offer.item.categoryId === null ? null : ((await ctx.categories.get(offer.item.categoryId)) ?? null)),
  // What an app acts on, from the record as `Campaign` reads it. The groups resolve to the record,
  // as `Campaign`'s do; the pin settings only as every user may see them, since an answer to one
  // app caller is shared with the others and with HTTP caches.
  type: (offer) => known(offer.item.record.campaignType),
  acceptUrl: (offer) => offer.item.record.acceptUrl ?? null,
  pinSettings: (offer) => sharedPinSettingsOf(offer.item.record),
  endsAt: (offer) => offer.item.record.campaignEnd ?? null,
  offerDurationHours: (offer) => offer.item.record.offerDuration ?? null,
  offerEndsAt: (offer) => offer.item.record.offerEnd ?? null,
  merchant: (offer) => offer.item.record,
  discount: (offer) => offer.item.record,
  cashback: (offer) => cashbackOf(offer.item.record),
};

export const OfferFeedCategory: OfferFeedCategoryResolvers = {
  category: (model) => model,
  offerCount: (model) => model.offerCount,
};
