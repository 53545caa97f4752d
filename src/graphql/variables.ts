import {
  coerceInputValue,
  isInputType,
  isNonNullType,
  print,
  typeFromAST,
  type GraphQLError,
  type GraphQLSchema,
  type VariableDefinitionNode,
} from 'graphql';
import { inspect } from 'graphql/jsutils/inspect.js';
import { QUOTE_LIMIT, preview, quote } from '../text/received-value.js';
import { clientError, ErrorCode } from './errors.js';

/**
 * Variable coercion with messages this API owns. graphql-js writes the whole received value into
 * its messages (twice), and Apollo gives it no way to hide suggestions there, so a production
 * server answered `"STARTE"` with `Did you mean the enum value "STARTED"?`, and a huge string
 * with a message twice its size. The rules are graphql-js's own (`coerceInputValue`); only the messages
 * differ: a received value is quoted as at most 40 characters and "…", and suggestions go when
 * `hideSuggestions` is set. Both execution paths ask this module, and it runs before graphql-js
 * coerces again, so graphql-js's messages are never sent.
 */
export interface VariableOptions {
  /** Leave out "Did you mean …?" (production: schema names are not disclosed). */
  hideSuggestions: boolean;
}

const STOP = Symbol('first variable error found');

/** The first problem with the request's variables, or undefined when they all coerce. */
export function firstVariableError(
  schema: GraphQLSchema,
  definitions: readonly VariableDefinitionNode[],
  inputs: Record<string, unknown>,
  { hideSuggestions }: VariableOptions,
): GraphQLError | undefined {
  let found: GraphQLError | undefined;
  // Thrown out of coerceInputValue too, which would otherwise go on through the whole value.
  const stop = (definition: VariableDefinitionNode, message: string, originalError?: Error) => {
    found = clientError(message, {
      nodes: definition,
      ...(originalError ? { originalError } : {}),
      extensions: { code: ErrorCode.BAD_USER_INPUT, http: { status: 400 } },
    });
    return STOP;
  };

  try {
    for (const definition of definitions) {
      const name = definition.variable.name.value;
      const type = typeFromAST(schema, definition.type);
      if (!isInputType(type)) {
        // Validation refuses such documents first; checked again as graphql-js does.
        throw stop(definition, `Variable "$${name}" expected value of type "${print(definition.type)}" which cannot be used as an input type.`);
      }
      if (!Object.hasOwn(inputs, name)) {
        if (!definition.defaultValue && isNonNullType(type)) throw stop(definition, `Variable "$${name}" of required type "${String(type)}" was not provided.`);
        continue;
      }
      const value = inputs[name];
      if (value === null && isNonNullType(type)) throw stop(definition, `Variable "$${name}" of non-null type "${String(type)}" must not be null.`);
      coerceInputValue(
        value,
        type,
        (path, invalidValue, error) => {
          // Path steps are field names of the schema and list indexes, never received keys.
          const at = path.length ? ` at "${name}${path.map((step) => (typeof step === 'number' ? `[${step}]` : `.${step}`)).join('')}"` : '';
          throw stop(definition, `Variable "$${name}" got invalid value ${preview(invalidValue)}${at}; ${bounded(error.message, invalidValue)}`, error);
        },
        hideSuggestions,
      );
    }
  } catch (error) {
    if (error !== STOP) throw error;
  }
  return found;
}

/**
 * graphql-js's reason, with every copy of the received value in it cut to a quote: the value as
 * graphql-js inspects it (built-in scalars), a string in quotes (enums) or bare (graphql-scalars'
 * SafeInt), an unknown key of an input object in quotes. Whatever a scalar writes otherwise is
 * cut where every error is formatted (`boundEchoes` in errors.ts).
 */
function bounded(reason: string, invalidValue: unknown): string {
  const swap = (text: string, whole: string, short: string) => (whole === short ? text : text.replaceAll(whole, () => short));
  let out = swap(reason, inspect(invalidValue), preview(invalidValue));
  if (typeof invalidValue === 'string' && invalidValue.length > QUOTE_LIMIT) {
    out = swap(swap(out, `"${invalidValue}"`, quote(invalidValue)), invalidValue, quote(invalidValue));
  }
  if (invalidValue !== null && typeof invalidValue === 'object' && !Array.isArray(invalidValue)) {
    for (const key of Object.keys(invalidValue)) if (key.length > QUOTE_LIMIT) out = swap(out, `"${key}"`, quote(key));
  }
  return out;
}
