import { parsePositiveId } from '../graphql/pagination.js';
import type { CategoryResolvers, QueryResolvers } from '../schema/generated/resolvers-types.js';

/** The category directory, shared by all partners: read through the request's `categories`. */
export const categoryQueries: Pick<QueryResolvers, 'categories' | 'category'> = {
  categories: (_root, _args, ctx) => ctx.categories.list(),

  category: async (_root, { id }, ctx) => {
    const categoryId = parsePositiveId(id);
    if (categoryId === null) return null;
    return (await ctx.categories.get(categoryId)) ?? null;
  },
};

export const Category: CategoryResolvers = {
  id: (category) => String(category.categoryId),
  name: (category) => category.categoryName,
};
