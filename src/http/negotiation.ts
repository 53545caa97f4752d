import { rememberedChoices } from './header-choices.js';

/**
 * The media type of a GraphQL answer, from the request's `Accept` header (GraphQL over HTTP):
 * `application/graphql-response+json` where the client prefers it (as Apollo Client does), else
 * `application/json`, chosen by quality, then specificity, then the client's order. Every answer
 * of /graphql goes out in it: results, refusals, and this layer's own errors.
 */

export const JSON_TYPE = 'application/json; charset=utf-8';
export const GRAPHQL_RESPONSE_TYPE = 'application/graphql-response+json; charset=utf-8';

export interface Negotiated {
  type: string;
  /** `type` as a header (read only: shared by every request with that Accept header). */
  headers: Readonly<Record<string, string>>;
  /** The client accepts neither JSON type: answered 406 (in application/json). */
  acceptable: boolean;
}

interface MediaRange {
  type: string;
  subtype: string;
  q: number;
  order: number;
}

function parseAccept(accept: string): MediaRange[] {
  return accept.split(',').flatMap((part, order) => {
    const [range, ...params] = part.split(';');
    const [type, subtype] = range!.trim().toLowerCase().split('/');
    if (!type || !subtype) return [];
    const q = params.map((p) => /^\s*q\s*=\s*([\d.]+)\s*$/i.exec(p)?.[1]).find((v) => v !== undefined);
    return [{ type, subtype, q: q === undefined ? 1 : Math.min(Number(q) || 0, 1), order }];
  });
}

/** How much the Accept ranges want `<type>/<subtype>`: the most specific range that matches decides. */
function preference(ranges: MediaRange[], subtype: string, type = 'application'): { q: number; specificity: number; order: number } {
  let best = { q: 0, specificity: -1, order: Infinity };
  for (const range of ranges) {
    const matches = (range.type === '*' || range.type === type) && (range.subtype === '*' || range.subtype === subtype);
    if (!matches) continue;
    const specificity = (range.type === type ? 2 : 0) + (range.subtype === subtype ? 1 : 0);
    if (specificity > best.specificity || (specificity === best.specificity && range.q > best.q)) best = { q: range.q, specificity, order: range.order };
  }
  return best;
}

const negotiated = (type: string, acceptable: boolean): Negotiated => ({ type, headers: Object.freeze({ 'content-type': type }), acceptable });
const PLAIN_JSON = negotiated(JSON_TYPE, true);

function choose(accept: string): Negotiated {
  const ranges = parseAccept(accept);
  const json = preference(ranges, 'json');
  const graphql = preference(ranges, 'graphql-response+json');
  if (json.q <= 0 && graphql.q <= 0) return negotiated(JSON_TYPE, false);
  if (graphql.q <= 0) return PLAIN_JSON;
  const prefersGraphql =
    graphql.q !== json.q ? graphql.q > json.q : graphql.specificity !== json.specificity ? graphql.specificity > json.specificity : graphql.order < json.order;
  return prefersGraphql ? negotiated(GRAPHQL_RESPONSE_TYPE, true) : PLAIN_JSON;
}

const chosen = rememberedChoices(choose);

export function negotiate(accept: string | undefined): Negotiated {
  return accept ? chosen(accept) : PLAIN_JSON;
}

/** A browser navigating to the endpoint: it asks for HTML before JSON (the explorer's page is the answer). */
export function prefersHtml(accept: string | undefined): boolean {
  if (!accept || !accept.includes('html')) return false;
  const ranges = parseAccept(accept);
  const html = preference(ranges, 'html', 'text');
  const json = preference(ranges, 'json');
  return html.q > 0 && (html.q > json.q || (html.q === json.q && html.specificity >= json.specificity));
}
