import type { Backend } from './backend.js';

/** What the soak knows about one partner, and what its mutations reported. */
export interface Partner {
  name: string;
  token: string;
  /** Domain of the campaigns it creates during the soak. */
  domain: string;
  /** Every merchantDomain its campaigns may have: a read showing another one is a leak. */
  domains: Set<string>;
  /** Strings only its data contains: its token, domains and pin prefix. */
  sentinels: string[];
  pinPrefix: string;
  /** Its campaign ids known for sure: the initial ones and those creates confirmed. */
  ids: Set<number>;
  initialIds: Set<number>;
  /** Campaigns the soak must not start or stop (their state is what is being counted). */
  pinCampaign: number;
  leadCampaign: number;
  creates: Ledger<number>;
  pins: Ledger<string>;
  leads: Ledger<string>;
}

/** Outcomes of one kind of write: confirmed by the answer, refused for sure, or unknown (timed out). */
export interface Ledger<K> {
  confirmed: Set<K>;
  refused: Set<K>;
  unknown: Set<K>;
}

const ledger = <K>(): Ledger<K> => ({ confirmed: new Set(), refused: new Set(), unknown: new Set() });

const DEMO = [
  { name: 'demo store', token: 'demo-store-token', kind: 'store', fixtureDomains: ['techno-mir.example.ru', 'svezhie-produkty.example.ru', 'knizhnaya-polka.example.ru'], fixturePins: ['TECHNO-', '46000000060'] },
  { name: 'demo aggregator', token: 'demo-aggregator-token', kind: 'aggregator', fixtureDomains: ['sport-market.example.ru', 'puteshestviya.example.ru', 'zoo-lavka.example.ru'], fixturePins: ['SPORT-', 'ZOO-'] },
] as const;

/** A create body in the REST API's shape, for set-up. */
export function restCampaign(partnerCampaignId: number, domain: string, kind: 'pins' | 'promo'): Record<string, unknown> {
  return {
    partnerCampaignId,
    categoryId: 1 + (partnerCampaignId % 12),
    ...(kind === 'pins' ? { campaignType: 'codeOffline', pinType: 'one-off', pinDisplayType: 'text' } : { campaignType: 'promo', acceptUrl: `https://${domain}/go` }),
    merchantDomain: domain,
    merchantLogoSvg: `https://${domain}/logo.svg`,
    merchantLogoPng: `https://${domain}/logo.png`,
    merchantName: 'Магазин нагрузки',
    backgroundColor: '#1A237E',
    fontColor: '#FFFFFF',
    description: 'Скидка для проверки',
    conditions: 'При заказе на сайте',
    discountType: 'percent',
    discountAmount: '10',
    feeType: 'percent',
    campaignFee: '5',
  };
}

/**
 * The demo store and aggregator plus `registered` more partners (stores and aggregators in
 * turn), each with a one-off code campaign for pins and a live promo campaign for leads.
 */
export async function preparePartners(backend: Backend, registered: number, runId: string): Promise<Partner[]> {
  const specs = [
    ...DEMO.map((d) => ({ ...d })),
    ...Array.from({ length: registered }, (_, i) => ({
      name: `partner ${i + 3} (${i % 2 ? 'aggregator' : 'store'})`,
      token: `soak-${runId}-partner-${i + 3}`,
      kind: i % 2 ? 'aggregator' : 'store',
      fixtureDomains: [] as string[],
      fixturePins: [] as string[],
    })),
  ];
  const partners: Partner[] = [];
  for (const [index, spec] of specs.entries()) {
    if (!spec.token.startsWith('demo-')) await backend.admin('partners', { token: spec.token, kind: spec.kind });
    const domain = `soak-p${index + 1}.example.ru`;
    const pinPrefix = `SOAKP${index + 1}X`;
    const made: number[] = [];
    for (const [offset, kind] of [[1, 'pins'], [2, 'promo']] as const) {
      const { result } = await backend.rest<{ result: { ymCampaignId: number } }>('campaigns/create', spec.token, restCampaign(9_000_000 + index * 10 + offset, domain, kind));
      // Approved at once, so the store's campaigns run too; an aggregator's stay live.
      await backend.admin('moderate', { ymCampaignId: result.ymCampaignId, decision: 'approve' });
      made.push(result.ymCampaignId);
    }
    const ids = new Set(await backend.campaignIds(spec.token));
    partners.push({
      name: spec.name,
      token: spec.token,
      domain,
      domains: new Set([domain, ...spec.fixtureDomains]),
      sentinels: [spec.token, domain, pinPrefix, ...spec.fixtureDomains.map((d) => d.split('.')[0]!), ...spec.fixturePins],
      pinPrefix,
      ids,
      initialIds: new Set(ids),
      pinCampaign: made[0]!,
      leadCampaign: made[1]!,
      creates: ledger(),
      pins: ledger(),
      leads: ledger(),
    });
  }
  return partners;
}
