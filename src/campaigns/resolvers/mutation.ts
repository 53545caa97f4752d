import type { GraphQLContext } from '../../schema/context.js';
import { noTokenError } from '../../graphql/errors.js';
import type { MutationResolvers } from '../../schema/generated/resolvers-types.js';
import { addPins } from '../mutations/add-pins.js';
import { createCampaign } from '../mutations/create-campaign.js';
import { reportLead } from '../mutations/report-lead.js';
import { changeStatus } from '../mutations/start-stop.js';
import { updateCampaign } from '../mutations/update-campaign.js';

/** Without a token there is nothing to check an input for: fail before any work. */
function authenticated(ctx: GraphQLContext): GraphQLContext {
  if (ctx.token === null) throw noTokenError(ctx.tokenProblem);
  return ctx;
}

export const Mutation: MutationResolvers = {
  createCampaign: (_root, { input }, ctx) => createCampaign(authenticated(ctx), input),
  updateCampaign: (_root, { input }, ctx) => updateCampaign(authenticated(ctx), input),
  startCampaign: (_root, { id }, ctx) => changeStatus(authenticated(ctx), id, 'start'),
  stopCampaign: (_root, { id }, ctx) => changeStatus(authenticated(ctx), id, 'stop'),
  addPins: (_root, { input }, ctx) => addPins(authenticated(ctx), input),
  reportLead: (_root, { input }, ctx) => reportLead(authenticated(ctx), input),
};
