import { TypeInfo, type GraphQLError, visit, visitWithTypeInfo, type DocumentNode, type GraphQLSchema } from 'graphql';
import type { Policy } from '../pipeline/types.js';
import { clientError } from '../graphql/errors.js';

/**
 * What an app key reaches: the public offer feed and the category directory, nothing else.
 * Every other root field, every partner-only field (stats, pins, fees, `partnerCampaignId`, raw
 * values: none of them is on these types) and every mutation is refused before anything runs,
 * so a refused request never calls the backend.
 */
export const APP_ROOT_FIELDS: ReadonlySet<string> = new Set(['offerFeed', 'categories']);
/**
 * Types whose every field is public: what the feed and the directory return. The campaign groups
 * an offer shares with `Campaign` (merchant, discount, pin settings, cashback) hold terms every
 * user of an app sees; a field added to them is reachable by apps, so it must be such a term too.
 */
export const APP_TYPES: ReadonlySet<string> = new Set([
  'OfferConnection',
  'OfferEdge',
  'Offer',
  'OfferFeedCategory',
  'CampaignCard',
  'CampaignMerchant',
  'CampaignDiscount',
  'CampaignPinSettings',
  'CampaignCashback',
  'Category',
  'PageInfo',
]);

export const FORBIDDEN = 'FORBIDDEN';

/** `Type.field` coordinates of the fields an app key may not ask for, in document order. */
export function forbiddenForApps(schema: GraphQLSchema, document: DocumentNode): string[] {
  const typeInfo = new TypeInfo(schema);
  const found: string[] = [];
  visit(
    document,
    visitWithTypeInfo(typeInfo, {
      OperationDefinition(node) {
        if (node.operation !== 'query') found.push(node.operation === 'mutation' ? 'Mutation' : 'Subscription');
      },
      Field(node) {
        const name = node.name.value;
        // Meta fields (__typename, and introspection where the server allows it) cost nothing.
        if (name.startsWith('__')) return false;
        const parent = typeInfo.getParentType();
        if (!parent || parent.name.startsWith('__')) return;
        const allowed = parent === schema.getQueryType() ? APP_ROOT_FIELDS.has(name) : APP_TYPES.has(parent.name);
        if (!allowed) {
          const coordinate = `${parent.name}.${name}`;
          if (!found.includes(coordinate)) found.push(coordinate);
          return false;
        }
        return undefined;
      },
    }),
  );
  return found;
}

export function forbiddenError(coordinates: string[]): GraphQLError {
  const listed = coordinates.slice(0, 10).join(', ') + (coordinates.length > 10 ? `, and ${coordinates.length - 10} more` : '');
  return clientError(
    `An app key (X-App-Key) reaches only Query.offerFeed and Query.categories; this operation asks for ${listed}. Partner fields and mutations need the partner's own token (Authorization: Bearer <token>) on the partner's server.`,
    { extensions: { code: FORBIDDEN, fields: coordinates, http: { status: 403 } } },
  );
}

/**
 * The scope of an app key as a policy of the pipeline: an operation an app may not run is refused
 * before anything runs, on every path, judged once per document.
 */
export function appScopePolicy(schema: GraphQLSchema): Policy {
  return {
    name: 'app key scope',
    document(document, _operation, { callerKind }) {
      if (callerKind !== 'app') return undefined;
      const forbidden = document.memo('app-scope', () => forbiddenForApps(schema, document.document));
      return forbidden.length ? { status: 403, errors: [forbiddenError(forbidden)] } : undefined;
    },
  };
}
