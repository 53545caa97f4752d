import type { Campaign, Partner } from './campaign.js';
import { handlers } from './handlers.js';
import { finish } from './lifecycle.js';
import { DEMO_TOKENS } from './demo.js';
import type { EmulatorState } from './state.js';
import { acceptOffer, moderateCampaign, showOffer } from './user-actions.js';

const DAY = 86_400_000;

interface Shop {
  domain: string;
  name: string;
  background: string;
  font: string;
}

function base(shop: Shop, partnerCampaignId: number, categoryId: number, extra: Record<string, unknown>): Record<string, unknown> {
  return {
    partnerCampaignId,
    categoryId,
    merchantDomain: shop.domain,
    merchantLogoSvg: `https://${shop.domain}/logo.svg`,
    merchantLogoPng: `https://${shop.domain}/logo.png`,
    merchantName: shop.name,
    backgroundColor: shop.background,
    fontColor: shop.font,
    description: 'Скидка для покупателей',
    conditions: 'Предложение действует при оформлении заказа на сайте магазина',
    discountType: 'percent',
    discountAmount: '10',
    feeType: 'percent',
    campaignFee: '5',
    ...extra,
  };
}

function create(state: EmulatorState, partner: Partner, body: Record<string, unknown>): Campaign {
  handlers.create(state, partner, body);
  const campaign = partner.campaigns.at(-1)!;
  // Fixtures wait for a decision by hand, so none of them moves by itself after start-up.
  campaign.moderationDueAt = null;
  state.changed(campaign);
  return campaign;
}

function approve(state: EmulatorState, c: Campaign): Campaign {
  moderateCampaign(state, c, 'approve', null);
  return c;
}

function addPins(state: EmulatorState, c: Campaign, pins: string[]): void {
  handlers.addPins(state, c.owner, { ymCampaignId: c.ymCampaignId, pinList: pins });
}

function show(state: EmulatorState, c: Campaign, times: number): void {
  for (let i = 0; i < times; i++) showOffer(state, c);
}

/** Takes an offer and reports a lead for it, moving the lead to `status` afterwards. */
function lead(state: EmulatorState, c: Campaign, transactionId: string, status: 'used' | 'approved' | 'declined'): void {
  const taken = acceptOffer(state, c);
  const key = 'pin' in taken ? { pinContent: taken.pin } : { clickId: taken.clickId };
  const report = { ymCampaignId: c.ymCampaignId, transactionId, campaignFee: '150.00', orderAmount: '3000.00', ...key };
  handlers.redeem(state, c.owner, report);
  if (status !== 'used') handlers.redeem(state, c.owner, { ...report, redeemStatus: status });
}

function stop(state: EmulatorState, c: Campaign): void {
  handlers.stop(state, c.owner, { ymCampaignId: c.ymCampaignId });
}

/** Moves a campaign's dates into the past and archives it, as its end passing would. */
function endedAt(state: EmulatorState, c: Campaign, today: number): void {
  c.setData({
    ...c.data,
    campaignStart: new Date(today - 60 * DAY).toISOString(),
    campaignEnd: new Date(today - 30 * DAY).toISOString(),
  });
  finish(c);
  state.changed(c);
}

function pinRange(prefix: string, count: number): string[] {
  return Array.from({ length: count }, (_, i) => `${prefix}${String(i + 1).padStart(4, '0')}`);
}

function ean13(seed: number, count: number): string[] {
  return Array.from({ length: count }, (_, i) => String(4_600_000_000_000 + seed * 1000 + i));
}

/**
 * Fills a fresh state: for each demo partner a handful of campaigns covering every status
 * and every campaign type, with pins, shows, accepts and leads so statistics are non-zero.
 * Dates are whole days relative to the emulator clock, so the set is the same on every start.
 */
export function loadFixtures(state: EmulatorState): void {
  const today = Math.floor(state.now() / DAY) * DAY;
  const inDays = (n: number) => new Date(today + n * DAY).toISOString();
  const store = state.partner(DEMO_TOKENS.store)!;
  const aggregator = state.partner(DEMO_TOKENS.aggregator)!;

  const techno: Shop = { domain: 'techno-mir.example.ru', name: 'Техно Мир', background: '#1A237E', font: '#FFFFFF' };
  const fresh: Shop = { domain: 'svezhie-produkty.example.ru', name: 'Свежие продукты', background: '#1B5E20', font: '#FFFFFF' };
  const books: Shop = { domain: 'knizhnaya-polka.example.ru', name: 'Книжная полка', background: '#4A148C', font: '#FFEB3B' };

  // The store: every status, every type.
  const s1 = approve(state, create(state, store, base(techno, 1001, 2, {
    campaignType: 'codeOnline', pinType: 'one-off', pinDisplayType: 'text', acceptUrl: 'https://techno-mir.example.ru/promo',
    description: 'Скидка 10% на ноутбуки', campaignEnd: inDays(90),
  })));
  addPins(state, s1, pinRange('TECHNO-', 20));
  show(state, s1, 42);
  lead(state, s1, 'order-1001-1', 'used');
  lead(state, s1, 'order-1001-2', 'approved');
  lead(state, s1, 'order-1001-3', 'declined');
  acceptOffer(state, s1);
  acceptOffer(state, s1);

  const s2 = approve(state, create(state, store, base(techno, 1002, 2, {
    campaignType: 'codeOffline', pinType: 'reusable', pinDisplayType: 'text', couponCode: 'TECHNO500',
    discountType: 'fix', discountAmount: '500', description: 'Скидка 500 рублей в магазинах сети',
  })));
  show(state, s2, 15);
  lead(state, s2, 'order-1002-1', 'approved');
  acceptOffer(state, s2);
  stop(state, s2);

  const s3 = approve(state, create(state, store, base(fresh, 1003, 1, {
    campaignType: 'promo', acceptUrl: 'https://svezhie-produkty.example.ru/akciya', discountType: 'text',
    discountAmount: 'Подарок к заказу', description: 'Подарок к первому заказу', campaignFee: undefined,
    campaignFeeMin: '50', campaignFeeMax: '300', feeType: 'fix',
  })));
  show(state, s3, 25);
  lead(state, s3, 'order-1003-1', 'used');
  lead(state, s3, 'order-1003-2', 'approved');
  for (let i = 0; i < 3; i++) acceptOffer(state, s3);

  create(state, store, base(books, 1004, 10, {
    campaignType: 'banner', appearanceType: 'ImageBanner', acceptUrl: 'https://knizhnaya-polka.example.ru/banner',
    backgroundImage: 'https://knizhnaya-polka.example.ru/banner.png', description: 'Новинки месяца со скидкой',
  }));

  const s5 = create(state, store, base(fresh, 1005, 1, {
    campaignType: 'promo', acceptUrl: 'https://svezhie-produkty.example.ru/skidka', discountAmount: '15',
    description: 'Скидка 15% на фрукты',
  }));
  moderateCampaign(state, s5, 'decline', 'Логотип не соответствует требованиям');

  const s6 = approve(state, create(state, store, base(techno, 1006, 2, {
    campaignType: 'codeOnline', pinType: 'one-off', pinDisplayType: 'ean_13', acceptUrl: 'https://techno-mir.example.ru/ean',
    description: 'Скидка 10% по штрихкоду',
  })));
  addPins(state, s6, ean13(6, 3));
  show(state, s6, 9);
  lead(state, s6, 'order-1006-1', 'used');
  acceptOffer(state, s6);
  acceptOffer(state, s6); // the last unused pin: pin-required

  const s7 = approve(state, create(state, store, base(books, 1007, 10, {
    campaignType: 'codeOffline', pinType: 'reusable', pinDisplayType: 'ean_13', couponCode: '4601234567893',
    description: 'Скидка 10% на учебники',
  })));
  show(state, s7, 60);
  lead(state, s7, 'order-1007-1', 'approved');
  lead(state, s7, 'order-1007-2', 'approved');
  endedAt(state, s7, today);

  approve(state, create(state, store, base(books, 1008, 10, {
    campaignType: 'banner', appearanceType: 'ImageBanner', acceptUrl: 'https://knizhnaya-polka.example.ru/leto',
    backgroundImage: 'https://knizhnaya-polka.example.ru/leto.png', description: 'Летняя распродажа книг',
    campaignStart: inDays(30), campaignEnd: inDays(60),
  })));

  // The aggregator: its campaigns go live at upload and are moderated afterwards.
  const sport: Shop = { domain: 'sport-market.example.ru', name: 'Спорт Маркет', background: '#B71C1C', font: '#FFFFFF' };
  const travel: Shop = { domain: 'puteshestviya.example.ru', name: 'Путешествия', background: '#0D47A1', font: '#FFFFFF' };
  const pets: Shop = { domain: 'zoo-lavka.example.ru', name: 'Зоолавка', background: '#3E2723', font: '#FFFFFF' };

  const a1 = approve(state, create(state, aggregator, base(sport, 2001, 7, {
    campaignType: 'codeOffline', pinType: 'one-off', pinDisplayType: 'text', description: 'Скидка 10% на кроссовки',
  })));
  addPins(state, a1, pinRange('SPORT-', 15));
  show(state, a1, 30);
  lead(state, a1, 'agg-2001-1', 'used');
  lead(state, a1, 'agg-2001-2', 'approved');
  acceptOffer(state, a1);

  const a2 = create(state, aggregator, base(travel, 2002, 8, {
    campaignType: 'promo', acceptUrl: 'https://puteshestviya.example.ru/tury', discountType: 'fix', discountAmount: '20',
    discountCurrency: 840, description: 'Скидка 20 долларов на туры',
  }));
  show(state, a2, 12); // live while its moderation is still pending
  lead(state, a2, 'agg-2002-1', 'used');
  acceptOffer(state, a2);

  const a3 = approve(state, create(state, aggregator, base(pets, 2003, 12, {
    campaignType: 'banner', appearanceType: 'ImageBanner', acceptUrl: 'https://zoo-lavka.example.ru/korm',
    backgroundImage: 'https://zoo-lavka.example.ru/korm.jpg', description: 'Корма для питомцев со скидкой',
  })));
  show(state, a3, 8);
  stop(state, a3);

  const a4 = create(state, aggregator, base(sport, 2004, 7, {
    campaignType: 'codeOnline', pinType: 'reusable', pinDisplayType: 'text', couponCode: 'SPORT15',
    acceptUrl: 'https://sport-market.example.ru/kod', discountAmount: '15', description: 'Скидка 15% на инвентарь',
  }));
  moderateCampaign(state, a4, 'decline', 'Описание не соответствует условиям');

  create(state, aggregator, base(travel, 2005, 8, {
    campaignType: 'promo', acceptUrl: 'https://puteshestviya.example.ru/zima', description: 'Скидка на зимние туры',
    campaignStart: inDays(45),
  }));

  const a6 = approve(state, create(state, aggregator, base(pets, 2006, 12, {
    campaignType: 'codeOffline', pinType: 'one-off', pinDisplayType: 'text', description: 'Скидка 10% на аксессуары',
  })));
  addPins(state, a6, pinRange('ZOO-', 2));
  show(state, a6, 5);
  lead(state, a6, 'agg-2006-1', 'approved');
  acceptOffer(state, a6);

  const a7 = approve(state, create(state, aggregator, base(sport, 2007, 7, {
    campaignType: 'promo', acceptUrl: 'https://sport-market.example.ru/zima', description: 'Зимняя распродажа лыж',
  })));
  show(state, a7, 100);
  lead(state, a7, 'agg-2007-1', 'approved');
  lead(state, a7, 'agg-2007-2', 'declined');
  endedAt(state, a7, today);
}
