import type { ApolloCache } from '@apollo/client';
import type { StoredConnection, StoredItem } from './type-policies.js';

/**
 * Cache updates that keep the cached `campaigns` lists right after a campaign appears in them:
 * created (`createCampaign`), or moved into a status list (`startCampaign`, `stopCampaign`).
 * Leaving a status list needs no update: `connectionPagination({ filterBy })` leaves
 * a campaign out of the lists of a status it no longer has when they are read.
 */

/** A campaign as a payload or an event has it: its id, and its status and number when selected. */
export interface CampaignInResult {
  id: string;
  status?: string | null;
  ymCampaignId?: number | null;
}

/**
 * Lists are oldest first by the campaign API's number (`ymCampaignId`): ids are opaque, so the
 * number is read from the cache, where a document that selects it has put it.
 */
function compareNumbers(a: number | undefined, b: number | undefined): number | undefined {
  return typeof a === 'number' && typeof b === 'number' ? a - b : undefined;
}

const isStoredConnection = (value: unknown): value is StoredConnection =>
  typeof value === 'object' && value !== null && Array.isArray((value as { items?: unknown }).items);

/**
 * Puts a campaign into every cached `campaigns` list it belongs to (no filter, or its status)
 * and is not in yet: at its place when that place is among the loaded items or the list is
 * complete, `totalCount` one more either way (a place beyond the loaded pages is reached by
 * paging on, as the server has it). A list whose order cannot be told (a `ymCampaignId` not
 * selected) is dropped, so that its screen reads it again rather than draw it wrong.
 */
export function placeCampaign(cache: ApolloCache, campaign: CampaignInResult): void {
  const id = cache.identify({ __typename: 'Campaign', id: campaign.id });
  if (!id) return;
  cache.modify({
    id: 'ROOT_QUERY',
    fields: {
      campaigns(value: unknown, { readField, toReference, DELETE }) {
        if (!isStoredConnection(value)) return value;
        const ref = toReference(id);
        if (!ref) return value;
        const status = campaign.status ?? readField<string>('status', ref);
        const number = campaign.ymCampaignId ?? readField<number>('ymCampaignId', ref);
        const wanted = value.filter?.withStatus ?? value.filter?.status;
        if (wanted !== undefined && wanted !== null && wanted !== status) return value;
        const idOf = (node: StoredItem['node']) => (node ? readField<string>('id', node) : undefined);
        if (value.items.some((item) => idOf(item.node) === campaign.id)) return value;

        let at = value.items.length;
        for (const [i, item] of value.items.entries()) {
          const order = item.node ? compareNumbers(number, readField<number>('ymCampaignId', item.node)) : undefined;
          if (order === undefined) return DELETE;
          if (order < 0) {
            at = i;
            break;
          }
        }
        const totalCount = typeof value.totalCount === 'number' ? value.totalCount + 1 : value.totalCount;
        const complete = value.pageInfo?.hasNextPage === false;
        if (at === value.items.length && !complete) return { ...value, totalCount };
        // Placed with what the payload selected: until the list's screen has everything it shows
        // of it (its cursor too, in a list read through edges), the kit reads that of this one
        // campaign and the item waits out of the list (placing.ts); the pages loaded stay.
        const edgeType = edgeTypeOf(value.items);
        const item: StoredItem = { node: ref, placed: true, ...(edgeType ? { edge: { __typename: edgeType, node: ref } } : {}) };
        return { ...value, totalCount, items: [...value.items.slice(0, at), item, ...value.items.slice(at)] };
      },
    },
  });
}

/** The edge type of a list read through edges (every item has one), or undefined. */
function edgeTypeOf(items: readonly StoredItem[]): string | undefined {
  const types = new Set(items.map((item) => item.edge?.__typename));
  const [type] = types;
  return types.size === 1 && typeof type === 'string' ? type : undefined;
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;

/**
 * A mutation's `update` for `createCampaign`, `startCampaign` and `stopCampaign` (any mutation
 * whose payload has `campaign { id ymCampaignId status }`): the campaign joins the cached lists it now belongs
 * to. `client.mutate({ mutation: StopCampaign, variables, update: keepCampaignLists })`.
 */
export function keepCampaignLists(cache: ApolloCache, result: { data?: unknown }): void {
  if (!isObject(result.data)) return;
  for (const payload of Object.values(result.data)) {
    const campaign = isObject(payload) ? payload.campaign : undefined;
    if (isObject(campaign) && typeof campaign.id === 'string') {
      placeCampaign(cache, {
        id: campaign.id,
        status: typeof campaign.status === 'string' ? campaign.status : null,
        ymCampaignId: typeof campaign.ymCampaignId === 'number' ? campaign.ymCampaignId : null,
      });
    }
  }
}
