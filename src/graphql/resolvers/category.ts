import type { CategoryResolvers } from '../generated/resolvers-types.js';

export const Category: CategoryResolvers = {
  id: (c) => String(c.categoryId),
  name: (c) => c.categoryName,
};
