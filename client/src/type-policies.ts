import { placedReady } from './placing.js';
import { InMemoryCache, type FieldPolicy, type InMemoryCacheConfig, type Reference, type StoreObject, type TypePolicies } from '@apollo/client';

/**
 * Apollo Client cache policies for this API. Without them the normalized cache loses data in two
 * ways a screen cannot see: objects without an id replace each other, and paged lists keep only
 * the last page of `nodes`.
 */

/**
 * Object types without an `id`: each is a group of fields of its parent (a campaign's merchant,
 * its card, its statistics...), never shared by two parents. By default Apollo replaces such an
 * object whenever its parent field is written again, so a list asking `merchant { name }` throws
 * away the `domain` a detail query cached a moment before, and the detail can no longer be read
 * from the cache (with no warning). `merge: true` merges the fields of both answers instead.
 */
export const VALUE_TYPES = [
  'CampaignMerchant',
  'CampaignAppearance',
  'CampaignDiscount',
  'CampaignFee',
  'CampaignPinSettings',
  'CampaignCashback',
  'CampaignCard',
  'CampaignStats',
  'PinCounts',
  'LeadCounts',
  // The latest `campaignChanged` event of a subscription: its campaign is normalized by id, the
  // event itself is the subscription field's value, replaced by the next one field for field.
  'CampaignStatusEvent',
  // A feed tab: its category is normalized by id, its offer count belongs to this feed.
  'OfferFeedCategory',
] as const;

/** What the cache keeps for a connection field: its items in order, whatever a page selected. */
export interface StoredConnection {
  items: StoredItem[];
  pageInfo?: Record<string, unknown>;
  /** The arguments that chose this list (all but the paging ones), for updates that place an item in it. */
  filter?: Record<string, unknown>;
  [field: string]: unknown;
}

export interface StoredItem {
  /** The item's cursor when the page had it (an edge's cursor, or `pageInfo.endCursor` for the last). */
  cursor?: string;
  /** The item, when a page selected it (through `nodes` or its edge's `node`). */
  node?: Reference | StoreObject | null;
  /** The item's edge as a page selected it, when the page read `edges`. */
  edge?: Record<string, unknown>;
  /** Placed by a mutation (`placeCampaign`) rather than read from the server, until its fields are read. */
  placed?: boolean;
}

interface IncomingConnection {
  nodes?: (Reference | StoreObject | null)[];
  edges?: ({ cursor?: string; node?: Reference | StoreObject | null } & Record<string, unknown>)[];
  pageInfo?: { endCursor?: string | null; startCursor?: string | null; hasNextPage?: boolean } & Record<string, unknown>;
  [field: string]: unknown;
}

/** Arguments that move through a list rather than choose it. */
const PAGING_ARGUMENTS = new Set(['first', 'after', 'last', 'before']);

export interface ConnectionOptions {
  /**
   * Arguments that choose items by a field of theirs: names of arguments that filter on the
   * field of the same name, or argument → field (`{ withStatus: 'status' }`: `campaigns(withStatus:)`
   * and `Campaign.status`). An item whose field no longer holds the argument's value (a campaign
   * stopped while its `STARTED` list is cached, by a mutation or a subscription event) is left
   * out when the list is read, and out of `totalCount`; it is back if the value comes back.
   */
  filterBy?: readonly string[] | Readonly<Record<string, string>>;
}

/**
 * A field policy for a Relay connection with `nodes` and/or `edges` (`campaigns`,
 * `Campaign.pins`, `offerFeed`). One cached list per combination of
 * the other arguments (`status`, a category...); a page read with `after` is appended after the
 * item with that cursor, a page without `after` starts the list again. Unlike Apollo's
 * `relayStylePagination`, which merges `edges` only and keeps the last page's `nodes`, both
 * `nodes` and `edges` read the whole list, so a screen may use either.
 */
export function connectionPagination(options: ConnectionOptions = {}): FieldPolicy<StoredConnection, IncomingConnection, IncomingConnection> {
  const given = options.filterBy ?? [];
  const filterBy: [argument: string, field: string][] = Array.isArray(given) ? given.map((name: string) => [name, name]) : Object.entries(given);
  return {
    keyArgs: (args) => Object.keys(args ?? {}).filter((name) => !PAGING_ARGUMENTS.has(name)).sort(),
    merge(existing, incoming, { args }) {
      const page = itemsOf(incoming);
      let before: StoredItem[] = [];
      const after = typeof args?.after === 'string' ? args.after : undefined;
      if (after !== undefined && existing) {
        const at = existing.items.findIndex((item) => item.cursor === after);
        // An unknown cursor (the screen did not select cursors, or the list was reset): append.
        before = at >= 0 ? existing.items.slice(0, at + 1) : existing.items;
      }
      const { nodes: _nodes, edges: _edges, ...rest } = incoming;
      const pageInfo =
        after !== undefined && existing?.pageInfo && incoming.pageInfo
          ? {
              ...existing.pageInfo,
              ...incoming.pageInfo,
              // The list starts where the first page started.
              startCursor: existing.pageInfo.startCursor ?? incoming.pageInfo.startCursor,
              hasPreviousPage: existing.pageInfo.hasPreviousPage ?? incoming.pageInfo.hasPreviousPage,
            }
          : (incoming.pageInfo ?? existing?.pageInfo);
      const filter = Object.fromEntries(Object.entries(args ?? {}).filter(([name]) => !PAGING_ARGUMENTS.has(name)));
      return { ...existing, ...rest, pageInfo, filter, items: [...before, ...page] } as StoredConnection;
    },
    // Each shape is served only when every item has it: a list paged through `nodes` has no
    // cursor per item, so `edges` is left out rather than read as an empty list (which Apollo
    // would take for a complete answer). A query asking for a shape that is not there misses it,
    // and Apollo asks the server.
    read(existing, { args, readField, cache, field, storeFieldName, variables }) {
      if (!existing) return undefined;
      const { items: stored, filter: _filter, ...rest } = existing;
      const items = stored.filter((item, at) => {
        const { node } = item;
        if (!node) return true;
        // A placed campaign waits out of the list until it has what the list shows (placing.ts).
        if (item.placed && !placedReady(item, at, existing, { cache, field, storeFieldName, variables, args, readField })) return false;
        return filterBy.every(([argument, field]) => {
          const wanted = args?.[argument];
          const value = wanted === undefined || wanted === null ? undefined : readField<unknown>(field, node);
          // Unknown (the field was never read) counts as still matching: the server chose it.
          return value === undefined || value === wanted;
        });
      });
      const read: IncomingConnection = { ...rest };
      if (typeof rest.totalCount === 'number') read.totalCount = rest.totalCount - (stored.length - items.length);
      if (items.every((item) => item.node !== undefined)) read.nodes = items.map((item) => item.node ?? null);
      if (items.every((item) => item.edge !== undefined)) read.edges = items.flatMap((item) => (item.edge ? [item.edge] : []));
      return read;
    },
  };
}

function itemsOf(incoming: IncomingConnection): StoredItem[] {
  const { nodes, edges } = incoming;
  const count = Math.max(nodes?.length ?? 0, edges?.length ?? 0);
  const endCursor = incoming.pageInfo?.endCursor ?? undefined;
  return Array.from({ length: count }, (_, i) => {
    const edge = edges?.[i];
    const cursor = edge?.cursor ?? (i === count - 1 ? endCursor : undefined);
    // Known when the page selected it, in `nodes` or in its edge (`null` included).
    const node = nodes && i < nodes.length ? nodes[i] : edge && 'node' in edge ? edge.node : undefined;
    return { ...(cursor !== undefined ? { cursor } : {}), ...(node !== undefined ? { node } : {}), ...(edge ? { edge } : {}) };
  });
}

export const typePolicies: TypePolicies = {
  ...Object.fromEntries(VALUE_TYPES.map((type) => [type, { merge: true }])),
  // Connection wrappers and page info live inside their field's cached value (see connectionPagination).
  PageInfo: { merge: true },
  Query: {
    fields: {
      // A campaign whose status changed leaves the lists of its old status when they are read;
      // `keepCampaignLists` (list-updates.ts) puts it into the lists of its new status.
      campaigns: connectionPagination({ filterBy: { withStatus: 'status', status: 'status' } }),
      // The mobile card feed (the kit's OfferCards): one list per categoryId/platform/locale.
      offerFeed: connectionPagination(),
      // A campaign already in the cache (from a list) answers `campaign(id)` without a request
      // when the fields asked are there; otherwise Apollo fetches as usual.
      campaign: {
        read(existing, { args, toReference }) {
          if (existing !== undefined || typeof args?.id !== 'string') return existing;
          return toReference({ __typename: 'Campaign', id: args.id });
        },
      },
    },
  },
  Campaign: {
    fields: {
      pins: connectionPagination(),
    },
  },
};

/** An InMemoryCache with the kit's policies; pass further options (possibleTypes, ...) as usual. */
export function createCache(options: Omit<InMemoryCacheConfig, 'typePolicies'> = {}): InMemoryCache {
  return new InMemoryCache({ ...options, typePolicies });
}
