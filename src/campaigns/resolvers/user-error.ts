import type { UserErrorResolvers } from '../../schema/generated/resolvers-types.js';

export const UserError: UserErrorResolvers = {
  field: (e) => e.field,
  message: (e) => e.message,
  code: (e) => e.code,
};
