import { ApolloClient } from '@apollo/client';
import { CampaignChanged, CampaignDetail, OfferCards, StartCampaign, StopCampaign } from '../src/documents.js';
import type { CampaignDetailQuery, CardFieldsFragment, OfferCardsQuery } from '../src/gql/graphql.js';
import { createLink } from '../src/link.js';
import { keepCampaignLists } from '../src/list-updates.js';
import { createCache } from '../src/type-policies.js';

/**
 * The kit in a browser: the card feed (what a mobile app draws) and a campaign page with start
 * and stop. Every screen renders from a watched query, so a mutation's answer, merged into the
 * normalized cache, redraws every screen that shows the campaign: no reload, no refetch.
 */
declare global {
  interface Window {
    EXAMPLE_CONFIG: { bffUrl: string };
  }
}

const params = new URLSearchParams(location.search);
const token = params.get('token') ?? 'demo-store-token';
/**
 * With `?appKey=` the feed is read as a mobile app reads it: with the public app key
 * (`demo-app-key` under `npm start`), no partner token, the offers of every partner of the key.
 * Without it, the partner token reads its own feed: the offers of this partner as apps show them,
 * each opening its campaign page. The campaign page and start/stop always use the partner token.
 */
const appKey = params.get('appKey');
// The kit's link: documents by their manifest hash (the server may run trusted documents only),
// queries and mutations over HTTP, the campaign page's live status over the WebSocket.
const { link } = createLink({
  uri: window.EXAMPLE_CONFIG.bffUrl,
  token,
  headersFor: (operation) => (appKey !== null && operation.operationName === 'OfferCards' ? { 'x-app-key': appKey } : undefined),
});
const client = new ApolloClient({ link, cache: createCache() });

const app = document.getElementById('app')!;
document.getElementById('partner')!.textContent = appKey ? `feed: app key ${appKey}, pages: ${token}` : token;
let current: { unsubscribe(): void }[] = [];

function el<K extends keyof HTMLElementTagNameMap>(tag: K, props: Partial<HTMLElementTagNameMap[K]> & { dataset?: Record<string, string> } = {}, ...children: (Node | string)[]): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  const { dataset, ...rest } = props;
  Object.assign(node, rest);
  if (dataset) Object.assign(node.dataset, dataset);
  node.append(...children);
  return node;
}

/** A logo, or the store's initial when the image cannot load (the demo's logos are not real). */
function logo(card: CardFieldsFragment): HTMLElement {
  const fallback = el('span', { className: 'logo', textContent: card.title.slice(0, 1) });
  const img = el('img', { className: 'logo', src: card.logoPngUrl, alt: '' });
  img.addEventListener('error', () => img.replaceWith(fallback));
  return img;
}

function cardView(id: string, label: string, card: CardFieldsFragment, status?: string): HTMLElement {
  const view = el(
    'a',
    { className: 'card', href: `#/campaign/${id}`, dataset: { id, ...(status ? { status } : {}) }, title: label },
    el('div', { className: 'top' }, logo(card), el('h2', { className: 'title', textContent: card.title })),
    el('span', { className: 'discount', textContent: card.discountLabel }),
    el('p', { className: 'description', textContent: card.description }),
  );
  view.style.backgroundColor = card.backgroundColor;
  view.style.color = card.fontColor;
  if (card.backgroundImageUrl) view.style.backgroundImage = `url("${card.backgroundImageUrl}")`;
  return view;
}

function errorsView(errors: readonly { message: string }[]): HTMLElement {
  return el('ul', { className: 'errors' }, ...errors.map((e) => el('li', { textContent: e.message })));
}

function showFeed(): void {
  // errorPolicy 'all': a failing root field is null with its error; keep the rest of the answer.
  // cache-and-network: the cached feed draws at once, and the server's answer replaces it. The
  // server rebuilds the feed at once after a start or stop through it, so a campaign stopped on
  // its page has left the feed when the screen comes back (offers carry no status to filter on).
  const query = client.watchQuery({ query: OfferCards, variables: { first: 12 }, errorPolicy: 'all', fetchPolicy: 'cache-and-network' });
  current.push(query.subscribe(({ data, error }) => {
    const feed = (data as OfferCardsQuery | undefined)?.feed;
    const cards = (feed?.nodes ?? []).map((n) => cardView(n.id, n.category?.name ?? '', n.card));
    const tabs = (feed?.categories ?? []).map((tab) => el('span', { className: 'tab', textContent: `${tab.category.name} · ${tab.offerCount}` }));
    const more = feed?.pageInfo.hasNextPage
      ? [el('button', { className: 'more', textContent: 'More', onclick: () => void query.fetchMore({ variables: { after: feed.pageInfo.endCursor } }) })]
      : [];
    app.replaceChildren(
      ...(feed ? [el('p', { className: 'tabs', dataset: { testid: 'tabs' } }, `${feed.totalCount} offers `, ...tabs)] : []),
      el('section', { className: 'feed', dataset: { testid: 'feed' } }, ...cards),
      ...more,
      ...(error ? [errorsView([error])] : []),
    );
  }));
}

function showCampaign(id: string): void {
  const query = client.watchQuery({ query: CampaignDetail, variables: { id }, errorPolicy: 'all' });
  let problems: { message: string }[] = [];
  let busy = false;
  let latest: unknown;
  // The buttons wait for the answer of the action under way. `busy` ends in the mutation's
  // `update`, which runs in the same cache write as the answer: the redraw that shows the new
  // status shows its buttons enabled too, never the new status with the buttons still disabled.
  const settled = (...args: Parameters<typeof keepCampaignLists>) => {
    busy = false;
    keepCampaignLists(...args);
  };
  const act = async (action: 'start' | 'stop') => {
    busy = true;
    render(latest);
    // The payload's campaign { id status } lands in the cache, which redraws this page and the feed.
    const { data, error } =
      action === 'start'
        ? await client.mutate({ mutation: StartCampaign, variables: { id }, errorPolicy: 'all', update: settled }).then((r) => ({ data: r.data?.startCampaign, error: r.error }))
        : await client.mutate({ mutation: StopCampaign, variables: { id }, errorPolicy: 'all', update: settled }).then((r) => ({ data: r.data?.stopCampaign, error: r.error }));
    problems = [...(data?.userErrors ?? []), ...(error ? [error] : [])];
    busy = false;
    render(latest);
  };
  const render = (data: unknown) => {
    latest = data;
    const campaign = (data as CampaignDetailQuery | undefined)?.campaign;
    if (!campaign) {
      app.replaceChildren(el('p', { textContent: data ? 'No such campaign.' : 'Loading…' }));
      return;
    }
    app.replaceChildren(
      el(
        'section',
        { className: 'detail' },
        cardView(campaign.id, campaign.category?.name ?? '', campaign.card, campaign.status),
        el(
          'div',
          { className: 'panel' },
          el('p', {}, 'Status: ', el('span', { className: 'status', textContent: campaign.status, dataset: { testid: 'status' } })),
          el('button', { textContent: 'Start', disabled: busy || campaign.status === 'STARTED', dataset: { action: 'start' }, onclick: () => void act('start') }),
          el('button', { textContent: 'Stop', disabled: busy || campaign.status !== 'STARTED', dataset: { action: 'stop' }, onclick: () => void act('stop') }),
          errorsView(problems),
          el(
            'dl',
            {},
            el('dt', { textContent: 'Store' }), el('dd', { textContent: `${campaign.merchant.name} (${campaign.merchant.domain})` }),
            el('dt', { textContent: 'Kind' }), el('dd', { textContent: campaign.type }),
            el('dt', { textContent: 'Discount' }), el('dd', { textContent: campaign.discount.label }),
            el('dt', { textContent: 'Category' }), el('dd', { textContent: campaign.category?.name ?? '—' }),
            el('dt', { textContent: 'Conditions' }), el('dd', { textContent: campaign.conditions }),
            el('dt', { textContent: 'Ends' }), el('dd', { textContent: campaign.endsAt ? new Date(campaign.endsAt).toLocaleString() : '—' }),
          ),
        ),
      ),
    );
  };
  current.push(query.subscribe(({ data }) => render(data)));
  // Started or stopped elsewhere (another screen, the schedule, the moderator): the event's
  // campaign { id status } lands in the cache, and this page redraws with no request.
  current.push(client.subscribe({ query: CampaignChanged, variables: { ids: [id] } }).subscribe({ error: () => {} }));
}

function route(): void {
  for (const subscription of current.splice(0)) subscription.unsubscribe();
  const match = /^#\/campaign\/([^/]+)$/.exec(location.hash);
  if (match) showCampaign(decodeURIComponent(match[1]!));
  else showFeed();
}

window.addEventListener('hashchange', route);
route();
