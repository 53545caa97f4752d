import type { z } from 'zod';
import { BUSINESS_ERROR_CODES, issueKind, type BusinessError, type IssueKind } from '../../campaign-api/index.js';
import { quote } from '../../text/received-value.js';
import { UNKNOWN_VALUE } from '../../schema/enum-values.js';
import type { UserErrorCodeValue, UserErrorModel } from '../../schema/models.js';
import { inGraphQLTerms } from '../vocabulary.js';

/** Where a problem is in the mutation's arguments: `["input", "backgroundColor"]`, `["id"]`. */
export type FieldPath = string[];

export function userError(field: FieldPath | null, code: UserErrorCodeValue, message: string): UserErrorModel {
  return { field, code, message };
}

/** The campaign API's refusal, or a consequence of it: INCORRECT_DATA. */
export function incorrect(field: FieldPath | null, message: string): UserErrorModel {
  return userError(field, 'incorrectData', message);
}

/** A problem this API found itself, by the kind of problem it is (its code). */
export function problem(field: FieldPath | null, kind: IssueKind, message: string): UserErrorModel {
  return userError(field, kind, message);
}

/** `pinList[3]` → `["pinList", "3"]`, `bonusDescription.category` → `["bonusDescription", "category"]`. */
export function splitBackendPath(path: string): string[] | null {
  if (!path || path === '(body)') return null;
  const parts: string[] = [];
  for (const match of path.matchAll(/([^.[\]]+)|\[(\d+)\]/g)) parts.push(match[1] ?? match[2]!);
  return parts.length ? parts : null;
}

/**
 * Zod issues as user errors under `root`, naming each field by its path in the input, in the
 * GraphQL API's words, coded by the kind of problem each is. Parse with the contract's
 * PARSE_OPTIONS, so no message is zod's own.
 */
export function userErrorsFromIssues(
  error: Pick<z.ZodError, 'issues'>,
  root: FieldPath,
  rename: (path: string[]) => FieldPath = (path) => path,
  names: Readonly<Record<string, string>> = {},
): UserErrorModel[] {
  return error.issues.map((issue) =>
    userError(issue.path.length ? [...root, ...rename(issue.path.map(String))] : root, issueKind(issue) ?? 'incorrectData', inGraphQLTerms(issue.message, names)),
  );
}

/**
 * A refusal of the campaign API as user errors: one per field it named (mapped to the input's
 * path), or one for the whole request, its messages in the GraphQL API's words. Codes this API
 * does not know become `UNKNOWN`, never a failure.
 */
export function userErrorsFromBusiness(
  error: BusinessError,
  mapField: (backendPath: string[]) => FieldPath | null,
  fallbackField: FieldPath | null,
  names: Readonly<Record<string, string>> = {},
): UserErrorModel[] {
  const isKnown = (BUSINESS_ERROR_CODES as readonly string[]).includes(error.code);
  const code = (isKnown ? error.code : UNKNOWN_VALUE) as UserErrorCodeValue;
  const prefix = isKnown ? '' : `The campaign API refused with code ${quote(error.code)}: `;
  if (error.fields.length) {
    return error.fields.map((f) => {
      const path = splitBackendPath(f.field);
      return userError(path ? mapField(path) : fallbackField, code, `${prefix}${inGraphQLTerms(f.message, names)}`);
    });
  }
  return [userError(fallbackField, code, `${prefix}${error.detail ? inGraphQLTerms(error.detail, names) : 'no reason given'}`)];
}
