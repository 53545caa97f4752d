import { isMoney } from '../../text/money.js';
import { currency, known } from '../backend-values.js';
import { discountLabel } from '../discount-label.js';
import type { CampaignDiscountResolvers } from '../../schema/generated/resolvers-types.js';

export const CampaignDiscount: CampaignDiscountResolvers = {
  type: (d) => known(d.discountType),
  amount: (d) => d.discountAmount,
  value: (d) => ((d.discountType === 'fix' || d.discountType === 'percent') && isMoney(d.discountAmount) ? d.discountAmount : null),
  currency: (d) => currency(d.discountCurrency),
  label: (d, { locale }) => discountLabel(d, locale),
};
