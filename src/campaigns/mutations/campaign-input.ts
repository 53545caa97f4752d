import { PARSE_OPTIONS, campaignChanges, operations, quote } from '../../campaign-api/index.js';
import type { GraphQLContext } from '../../schema/context.js';
import type { CreateCampaignInput, UpdateCampaignInput } from '../../schema/generated/resolvers-types.js';
import type { UserErrorModel } from '../models.js';
import { parsePositiveId } from '../../graphql/pagination.js';
import { incorrect, userErrorsFromIssues } from './user-errors.js';

const ROOT = ['input'];

/** What `null` means in an input: "not given" (create), or "clear this field" (update). */
type NullMeans = 'absent' | 'clear';

/**
 * The input in the REST API's shape (the field names are the same; ids become numbers, platform
 * lists a comma-separated string; `null` left out, or kept to clear the field), with the problems
 * that the shape alone shows.
 */
function toRestShape(input: Record<string, unknown>, nullMeans: NullMeans): { request: Record<string, unknown>; errors: UserErrorModel[] } {
  const request: Record<string, unknown> = {};
  const errors: UserErrorModel[] = [];
  for (const [key, value] of Object.entries(input)) {
    if (value === undefined) continue;
    if (value === null) {
      if (nullMeans === 'clear') request[key] = null;
      continue;
    }
    if (key === 'supportedPlatforms' && Array.isArray(value)) {
      if (value.length === 0) {
        const instead = nullMeans === 'clear' ? 'send null' : 'omit the field';
        errors.push(incorrect([...ROOT, key], `must list at least one platform; ${instead} to show the offer on every device`));
        continue;
      }
      request[key] = [...new Set(value)].join(',');
      continue;
    }
    if (key === 'categoryId') {
      const id = parsePositiveId(String(value));
      if (id === null) {
        errors.push(incorrect([...ROOT, key], `must be a category id from the categories query, such as "3", got ${quote(String(value))}`));
        continue;
      }
      request[key] = id;
      continue;
    }
    request[key] = value;
  }
  return { request, errors };
}

async function categoryProblem(ctx: GraphQLContext, categoryId: unknown): Promise<UserErrorModel | null> {
  if (typeof categoryId !== 'number') return null;
  try {
    if (await ctx.categories.get(categoryId)) return null;
  } catch {
    // The directory is a convenience check; when it cannot be read, the campaign API still checks.
    return null;
  }
  return incorrect([...ROOT, 'categoryId'], `no category has id ${categoryId}; pick one from the categories query`);
}

export interface CheckedInput<T> {
  request: T | null;
  userErrors: UserErrorModel[];
}

async function check<T>(
  ctx: GraphQLContext,
  input: Record<string, unknown>,
  schema: { safeParse(data: unknown, options: typeof PARSE_OPTIONS): { success: true; data: T } | { success: false; error: import('zod').ZodError } },
  nullMeans: NullMeans,
): Promise<CheckedInput<T>> {
  const { request, errors } = toRestShape(input, nullMeans);
  const reported = new Set(errors.map((e) => e.field?.[1]));
  const parsed = schema.safeParse(request, PARSE_OPTIONS);
  const issues = parsed.success ? [] : userErrorsFromIssues(parsed.error, ROOT).filter((e) => !reported.has(e.field?.[1]));
  const category = reported.has('categoryId') ? null : await categoryProblem(ctx, request.categoryId);
  const userErrors = [...errors, ...issues, ...(category ? [category] : [])];
  return { request: userErrors.length === 0 && parsed.success ? parsed.data : null, userErrors };
}

/** Every problem of a create input at once, or the REST request to send. No backend call but the (cached) category directory. */
export function checkCreateInput(ctx: GraphQLContext, input: CreateCampaignInput) {
  return check(ctx, input as unknown as Record<string, unknown>, operations.create.request, 'absent');
}

/**
 * Every problem that the fields of an update show by themselves (values, null for a field every
 * campaign has, rules among the fields sent), or the changes in the REST shape, null for a field
 * to clear. The merged campaign is checked once the current one is read.
 */
export function checkUpdateChanges(ctx: GraphQLContext, fields: Omit<UpdateCampaignInput, 'id'>) {
  return check(ctx, fields as unknown as Record<string, unknown>, campaignChanges, 'clear');
}
