import { PARSE_OPTIONS, campaignChanges, operations } from '../../campaign-api/index.js';
import { quote } from '../../text/received-value.js';
import type { GraphQLContext } from '../../schema/context.js';
import type { CreateCampaignInput, UpdateCampaignInput } from '../../schema/generated/resolvers-types.js';
import type { UserErrorModel } from '../../schema/models.js';
import { parsePositiveId } from '../../graphql/pagination.js';
import { INPUT_NAMES, flattenInput, inputPath } from './input-fields.js';
import { problem, userErrorsFromIssues } from './user-errors.js';

const ROOT = ['input'];

/** A REST field's place in the input, under the argument: `["input", "merchant", "logoPngUrl"]`. */
export const atInput = (restPath: readonly string[]): string[] => [...ROOT, ...inputPath(restPath)];

/** What `null` means in an input: "not given" (create), or "clear this field" (update). */
type NullMeans = 'absent' | 'clear';

/**
 * The input in the REST API's shape (its field names; ids become numbers, platform lists a
 * comma-separated string; `null` left out, or kept to clear the field), with the problems that
 * the shape alone shows. Errors name the field by its path in the input.
 */
function toRestShape(input: Record<string, unknown>, nullMeans: NullMeans): { request: Record<string, unknown>; errors: UserErrorModel[] } {
  const { fields, unclearable } = flattenInput(input);
  const request: Record<string, unknown> = {};
  const errors: UserErrorModel[] = unclearable.map((path) => problem([...ROOT, ...path], 'required', 'is required and cannot be cleared: leave it out to keep the current values'));
  for (const [key, value] of Object.entries(fields)) {
    if (value === null) {
      if (nullMeans === 'clear') request[key] = null;
      continue;
    }
    if (key === 'supportedPlatforms' && Array.isArray(value)) {
      if (value.length === 0) {
        const instead = nullMeans === 'clear' ? 'send null' : 'omit the field';
        errors.push(problem(atInput([key]), 'required', `must list at least one platform; ${instead} to show the offer on every device`));
        continue;
      }
      request[key] = [...new Set(value)].join(',');
      continue;
    }
    if (key === 'categoryId') {
      const id = parsePositiveId(String(value));
      if (id === null) {
        errors.push(problem(atInput([key]), 'format', `must be a category id from the categories query, such as "3", got ${quote(String(value))}`));
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
  return problem(atInput(['categoryId']), 'notFound', `no category has id ${categoryId}; pick one from the categories query`);
}

export interface CheckedInput<T> {
  request: T | null;
  userErrors: UserErrorModel[];
}

/** The contract's problems with a request, under their input paths, in the input's words. */
export function problemsOf(error: Pick<import('zod').ZodError, 'issues'>): UserErrorModel[] {
  return userErrorsFromIssues(error, ROOT, inputPath, INPUT_NAMES);
}

async function check<T>(
  ctx: GraphQLContext,
  input: Record<string, unknown>,
  schema: { safeParse(data: unknown, options: typeof PARSE_OPTIONS): { success: true; data: T } | { success: false; error: import('zod').ZodError } },
  nullMeans: NullMeans,
): Promise<CheckedInput<T>> {
  const { request, errors } = toRestShape(input, nullMeans);
  const reported = new Set(errors.map((e) => e.field?.join('.')));
  const parsed = schema.safeParse(request, PARSE_OPTIONS);
  const issues = parsed.success ? [] : problemsOf(parsed.error).filter((e) => !reported.has(e.field?.join('.')));
  const category = reported.has('input.categoryId') ? null : await categoryProblem(ctx, request.categoryId);
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
