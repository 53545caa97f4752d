import type { ApolloCache, ApolloClient, Reference } from '@apollo/client';
import type { FieldFunctionOptions } from '@apollo/client/cache';
import { Kind, OperationTypeNode, type DocumentNode, type FieldNode, type FragmentDefinitionNode, type SelectionNode, type SelectionSetNode } from 'graphql';
import type { StoredConnection, StoredItem } from './type-policies.js';

/**
 * A campaign placed in a cached list by a mutation (`placeCampaign`) carries the fields its
 * payload selected; the list's screen may show more (a merchant's name, a card) and, read
 * through edges, each item's cursor. Apollo reads a list with a missing field as a miss and asks
 * the server for the list again with its first page's variables, which throws away the pages the
 * user loaded. So a placed item the list cannot draw yet is left out of the list when it is read,
 * and the kit reads what is missing of that one campaign: the item right after the one before it
 * (`campaigns(first: 1, after:)`, which brings its cursor too) or, in a list that keeps no
 * cursors, the campaign by `node(id:)`. When that lands, the item is in the list.
 *
 * The kit's link tells this module each client it serves, and the fragments of the documents
 * it sends, so the read can be made with the list's own selection.
 */

const clients = new WeakMap<object, ApolloClient>();
const fragments = new WeakMap<object, Map<string, FragmentDefinitionNode>>();
/** The fragments a client's documents define, by name: bounded, as an app's fragments are few. */
const MAX_FRAGMENTS = 2000;

/** Called by the kit's link with each operation it sends. */
export function noteOperation(client: ApolloClient | undefined, document: DocumentNode): void {
  if (!client) return;
  clients.set(client.cache, client);
  let known = fragments.get(client.cache);
  if (!known) fragments.set(client.cache, (known = new Map()));
  for (const definition of document.definitions) {
    if (definition.kind === Kind.FRAGMENT_DEFINITION && known.size < MAX_FRAGMENTS) known.set(definition.name.value, definition);
  }
}

/** The argument types of `Query.campaigns`, to read one item of a cached list in its own terms. */
const CAMPAIGNS_ARGUMENTS: Record<string, string> = { first: 'Int', after: 'String', withStatus: 'CampaignStatusInput', status: 'CampaignStatus' };

interface ListSelection {
  /** What the list reads of each campaign: `nodes { … }` and `edges { node { … } }` together. */
  item: SelectionNode[];
  /** The edge's own selection, when the list reads edges. */
  edge?: SelectionSetNode;
  cursor: boolean;
}

const fieldsNamed = (selections: readonly SelectionNode[], name: string, fragmentsByName: Map<string, FragmentDefinitionNode>): FieldNode[] =>
  flatten(selections, fragmentsByName).filter((s): s is FieldNode => s.kind === Kind.FIELD && s.name.value === name);

/** Selections with fragment spreads and inline fragments opened (a list's fragments are on its own type). */
function flatten(selections: readonly SelectionNode[], fragmentsByName: Map<string, FragmentDefinitionNode>, depth = 0): SelectionNode[] {
  if (depth > 20) return [];
  return selections.flatMap((selection) => {
    if (selection.kind === Kind.FIELD) return [selection];
    const set = selection.kind === Kind.INLINE_FRAGMENT ? selection.selectionSet : fragmentsByName.get(selection.name.value)?.selectionSet;
    return set ? flatten(set.selections, fragmentsByName, depth + 1) : [];
  });
}

function listSelection(field: FieldNode, fragmentsByName: Map<string, FragmentDefinitionNode>): ListSelection {
  const top = field.selectionSet?.selections ?? [];
  const item = fieldsNamed(top, 'nodes', fragmentsByName).flatMap((nodes) => nodes.selectionSet?.selections ?? []);
  const edges = fieldsNamed(top, 'edges', fragmentsByName);
  const edgeSelections = edges.flatMap((e) => e.selectionSet?.selections ?? []);
  item.push(...fieldsNamed(edgeSelections, 'node', fragmentsByName).flatMap((node) => node.selectionSet?.selections ?? []));
  const edge = edges.length ? ({ kind: Kind.SELECTION_SET, selections: edgeSelections } as const) : undefined;
  return { item, ...(edge ? { edge } : {}), cursor: fieldsNamed(edgeSelections, 'cursor', fragmentsByName).length > 0 };
}

/** The fragments `selections` spread, and the ones those spread, as definitions. */
function usedFragments(selections: readonly SelectionNode[], fragmentsByName: Map<string, FragmentDefinitionNode>, into = new Map<string, FragmentDefinitionNode>()) {
  for (const selection of selections) {
    if (selection.kind === Kind.FRAGMENT_SPREAD) {
      const definition = fragmentsByName.get(selection.name.value);
      if (definition && !into.has(definition.name.value)) {
        into.set(definition.name.value, definition);
        usedFragments(definition.selectionSet.selections, fragmentsByName, into);
      }
    } else if (selection.selectionSet) usedFragments(selection.selectionSet.selections, fragmentsByName, into);
  }
  return into;
}

const name = (value: string) => ({ kind: Kind.NAME, value }) as const;

/** `fragment KitPlacedCampaign on Campaign { … }` with the fragments it uses. */
function itemFragment(item: SelectionNode[], fragmentsByName: Map<string, FragmentDefinitionNode>): DocumentNode {
  const own: FragmentDefinitionNode = {
    kind: Kind.FRAGMENT_DEFINITION,
    name: name('KitPlacedCampaign'),
    typeCondition: { kind: Kind.NAMED_TYPE, name: name('Campaign') },
    selectionSet: { kind: Kind.SELECTION_SET, selections: [{ kind: Kind.FIELD, name: name('id') }, ...item] },
  };
  return { kind: Kind.DOCUMENT, definitions: [own, ...usedFragments(item, fragmentsByName).values()] };
}

export interface PlacedRead {
  cache: ApolloCache;
  field: FieldNode | null;
  storeFieldName: string;
  variables: Record<string, unknown> | undefined;
  args: Record<string, unknown> | null;
  readField: FieldFunctionOptions['readField'];
}

/** Per cache, the placed items read or being read, by list and campaign: each is read once. */
const reads = new WeakMap<object, Map<string, 'reading' | 'read'>>();

/**
 * Whether a placed item can be drawn with the list's selection. When it cannot, the kit reads
 * what is missing (once per list and campaign) and the item waits out of the list until then.
 * Without the kit's link (no client known) it is drawn as it is, and Apollo reads the list again.
 */
export function placedReady(item: StoredItem, at: number, list: StoredConnection, read: PlacedRead): boolean {
  const client = clients.get(read.cache);
  const node = item.node;
  if (!client || !read.field || !node) return true;
  const fragmentsByName = fragments.get(read.cache) ?? new Map<string, FragmentDefinitionNode>();
  const selection = listSelection(read.field, fragmentsByName);
  const id = read.readField<string>('id', node);
  const cacheId = id === undefined ? undefined : read.cache.identify({ __typename: 'Campaign', id });
  if (!cacheId) return true;
  const fragment = itemFragment(selection.item, fragmentsByName);
  let complete = false;
  try {
    complete = read.cache.readFragment({ id: cacheId, fragment, fragmentName: 'KitPlacedCampaign', variables: read.variables }) !== null;
  } catch {
    complete = false;
  }
  if (complete && !(selection.cursor && item.cursor === undefined)) return true;
  let known = reads.get(read.cache);
  if (!known) reads.set(read.cache, (known = new Map()));
  const key = `${read.storeFieldName} ${id}`;
  const state = known.get(key);
  // Read once already and still not drawable (the server refused the read, or answered without
  // it): drawn as it is, and Apollo reads the list again.
  if (state === 'read') return true;
  if (state === undefined) {
    known.set(key, 'reading');
    const before = at > 0 ? list.items[at - 1]?.cursor : null;
    // Off the read: a read may not start a request.
    setTimeout(() => {
      const done = selection.cursor && before !== undefined ? readItem(client, read, selection, fragmentsByName, before, id!) : readNode(client, fragment, id!, read.variables);
      done.catch(() => {}).finally(() => known.set(key, 'read'));
    });
  }
  return false;
}

/** The placed campaign as the list reads it, with its cursor: the one item after the one before it. */
async function readItem(client: ApolloClient, read: PlacedRead, selection: ListSelection, fragmentsByName: Map<string, FragmentDefinitionNode>, after: string | null, id: string): Promise<void> {
  const filter = Object.entries(read.args ?? {}).filter(([arg, value]) => arg in CAMPAIGNS_ARGUMENTS && arg !== 'first' && arg !== 'after' && value != null);
  const variables: Record<string, unknown> = { ...Object.fromEntries(filter), first: 1, after };
  const names = Object.keys(variables);
  const list: FieldNode = {
    kind: Kind.FIELD,
    name: name('campaigns'),
    arguments: names.map((arg) => ({ kind: Kind.ARGUMENT, name: name(arg), value: { kind: Kind.VARIABLE, name: name(arg) } })),
    selectionSet: { kind: Kind.SELECTION_SET, selections: [{ kind: Kind.FIELD, name: name('edges'), selectionSet: selection.edge! }] },
  };
  const query: DocumentNode = {
    kind: Kind.DOCUMENT,
    definitions: [
      {
        kind: Kind.OPERATION_DEFINITION,
        operation: OperationTypeNode.QUERY,
        name: name('KitPlacedCampaign'),
        variableDefinitions: names.map((arg) => ({ kind: Kind.VARIABLE_DEFINITION, variable: { kind: Kind.VARIABLE, name: name(arg) }, type: { kind: Kind.NAMED_TYPE, name: name(CAMPAIGNS_ARGUMENTS[arg]!) } })),
        selectionSet: { kind: Kind.SELECTION_SET, selections: [list] },
      },
      ...usedFragments(selection.edge!.selections, fragmentsByName).values(),
    ],
  };
  const { data } = await client.query({ query, variables, fetchPolicy: 'no-cache' });
  const edge = (data as { campaigns?: { edges?: { node?: { id?: string } }[] } } | undefined)?.campaigns?.edges?.[0];
  if (!edge?.node || edge.node.id !== id) return readNode(client, itemFragment(selection.item, fragmentsByName), id, read.variables);
  const cache = client.cache;
  const ref = cache.writeFragment({ fragment: itemFragment(selection.item, fragmentsByName), fragmentName: 'KitPlacedCampaign', data: { __typename: 'Campaign', ...edge.node }, variables: read.variables });
  if (!ref) return;
  const { cursor, node: _node, ...rest } = edge as { cursor?: string; node: unknown };
  cache.modify({
    id: 'ROOT_QUERY',
    fields: {
      campaigns(value: unknown, { storeFieldName }) {
        if (storeFieldName !== read.storeFieldName || !isStored(value)) return value;
        const items = value.items.map((stored): StoredItem => {
          if (!stored.placed || !stored.node || (stored.node as Reference).__ref !== ref.__ref) return stored;
          return { ...(cursor !== undefined ? { cursor } : {}), node: ref, edge: { ...stored.edge, ...rest, ...(cursor !== undefined ? { cursor } : {}), node: ref } };
        });
        return { ...value, items };
      },
    },
  });
}

const isStored = (value: unknown): value is StoredConnection => typeof value === 'object' && value !== null && Array.isArray((value as { items?: unknown }).items);

/** The placed campaign's fields the list reads, by `node(id:)`, into the cache. */
async function readNode(client: ApolloClient, fragment: DocumentNode, id: string, variables: Record<string, unknown> | undefined): Promise<void> {
  const [own, ...rest] = fragment.definitions as FragmentDefinitionNode[];
  const query: DocumentNode = {
    kind: Kind.DOCUMENT,
    definitions: [
      {
        kind: Kind.OPERATION_DEFINITION,
        operation: OperationTypeNode.QUERY,
        name: name('KitPlacedCampaignNode'),
        variableDefinitions: [{ kind: Kind.VARIABLE_DEFINITION, variable: { kind: Kind.VARIABLE, name: name('id') }, type: { kind: Kind.NON_NULL_TYPE, type: { kind: Kind.NAMED_TYPE, name: name('ID') } } }],
        selectionSet: {
          kind: Kind.SELECTION_SET,
          selections: [
            {
              kind: Kind.FIELD,
              name: name('node'),
              arguments: [{ kind: Kind.ARGUMENT, name: name('id'), value: { kind: Kind.VARIABLE, name: name('id') } }],
              selectionSet: { kind: Kind.SELECTION_SET, selections: [{ kind: Kind.FRAGMENT_SPREAD, name: name('KitPlacedCampaign') }] },
            },
          ],
        },
      },
      own!,
      ...rest,
    ],
  };
  await client.query({ query, variables: { ...variables, id }, fetchPolicy: 'network-only' });
}
