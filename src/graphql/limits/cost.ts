import {
  Kind,
  getDirectiveValues,
  getNamedType,
  isCompositeType,
  print,
  isObjectType,
  isInterfaceType,
  isAbstractType,
  valueFromAST,
  type DocumentNode,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLCompositeType,
  type GraphQLDirective,
  type GraphQLField,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionSetNode,
} from 'graphql';

/**
 * What a query would cost before anything runs: the backend calls it can cause and the objects
 * it can return, from the `@backendCall` and `@listSize` annotations of the schema and the
 * actual `first`/`ids` arguments (variables included): a list read by one call per item costs
 * as many calls as it has items. Refusing on this estimate means a query that would fan out into
 * thousands of calls never makes the first one.
 */
export interface CostEstimate {
  backendCalls: number;
  listNodes: number;
}

interface BackendCall {
  operation: string;
  perItem?: boolean | null;
}

interface ListSize {
  slicingArguments?: string[] | null;
  assumedSize?: number | null;
  sizedFields?: string[] | null;
}

/** Cut-off against pathological documents; validation already refused fragment cycles. */
const MAX_VISITS = 100_000;

export function estimateCost(
  schema: GraphQLSchema,
  document: DocumentNode,
  operationName: string | null | undefined,
  variables: Record<string, unknown> | undefined,
): CostEstimate {
  const operation = document.definitions.find(
    (d): d is OperationDefinitionNode =>
      d.kind === Kind.OPERATION_DEFINITION && (operationName ? d.name?.value === operationName : true),
  );
  const estimate: CostEstimate = { backendCalls: 0, listNodes: 0 };
  if (!operation) return estimate;
  const root = schema.getRootType(operation.operation);
  if (!root) return estimate;

  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const d of document.definitions) if (d.kind === Kind.FRAGMENT_DEFINITION) fragments.set(d.name.value, d);
  const backendCall = schema.getDirective('backendCall');
  const listSize = schema.getDirective('listSize');
  const vars = variables ?? {};
  let visits = 0;

  /**
   * The fields of one (merged) selection, grouped by response key, as graphql-js collects them for
   * execution: a fragment is expanded once per selection however often it is spread, and fields
   * asked for twice under one key are one field. Expanding every spread instead made a
   * "fragment bomb" (each fragment spreading the next one three times) cost 3^n steps.
   */
  const collect = (selectionSets: readonly SelectionSetNode[]): ReadonlyMap<string, FieldNode[]> => {
    const fields = new Map<string, FieldNode[]>();
    const expanded = new Set<string>();
    const walk = (selectionSet: SelectionSetNode): void => {
      for (const s of selectionSet.selections) {
        if (s.kind === Kind.FIELD) {
          const key = s.alias?.value ?? s.name.value;
          const same = fields.get(key);
          if (same) same.push(s);
          else fields.set(key, [s]);
        } else if (s.kind === Kind.INLINE_FRAGMENT) {
          walk(s.selectionSet);
        } else if (!expanded.has(s.name.value)) {
          expanded.add(s.name.value);
          const fragment = fragments.get(s.name.value);
          if (fragment) walk(fragment.selectionSet);
        }
      }
    };
    for (const selectionSet of selectionSets) walk(selectionSet);
    return fields;
  };

  const directive = <T>(def: GraphQLField<unknown, unknown>, d: GraphQLDirective | null | undefined): T | undefined =>
    d && def.astNode ? (getDirectiveValues(d, def.astNode) as T | undefined) : undefined;

  const sizeOf = (node: FieldNode, def: GraphQLField<unknown, unknown>, spec: ListSize): number => {
    for (const name of spec.slicingArguments ?? []) {
      const argNode = node.arguments?.find((a) => a.name.value === name);
      const argDef = def.args.find((a) => a.name === name);
      if (!argDef) continue;
      const value = argNode ? valueFromAST(argNode.value, argDef.type, vars) : argDef.defaultValue;
      if (typeof value === 'number') return Math.max(0, value);
      if (Array.isArray(value)) return value.length;
    }
    return spec.assumedSize ?? 1;
  };

  /**
   * `paid`: the operation each object of this selection was read by already (an item of a list
   * read by one call per item), which its own fields needing that operation share.
   */
  const visit = (
    selectionSets: readonly SelectionSetNode[],
    type: GraphQLCompositeType,
    multiplier: number,
    sized?: { fields: string[]; size: number },
    paid?: string,
  ): void => {
    if (++visits > MAX_VISITS) throw new Error('query too large to estimate');
    const fieldMap = isObjectType(type) || isInterfaceType(type) ? type.getFields() : undefined;
    // Under an interface or union, `... on Campaign { stats }` asks for a field of a possible
    // type: it costs what it costs on that type, or a node() query would cost nothing.
    const possible = isAbstractType(type) ? schema.getPossibleTypes(type) : [];
    const fieldDef = (name: string) => fieldMap?.[name] ?? possible.find((t) => name in t.getFields())?.getFields()[name];
    /** Calls per object, by operation and arguments: one, or one per item of a list. */
    const calls = new Map<string, number>();
    for (const nodes of collect(selectionSets).values()) {
      // Validation made fields under one key agree on name and arguments: the first speaks for all.
      const node = nodes[0]!;
      const def = fieldDef(node.name.value);
      if (!def) continue; // __typename or introspection: no backend cost
      const call = directive<BackendCall>(def, backendCall);
      const spec = directive<ListSize>(def, listSize);
      // Lists that can be long carry @listSize; an unannotated one counts as one item.
      const size = spec ? sizeOf(node, def, spec) : 1;
      if (call) {
        // Fields of one object share a call (the loader); different arguments make different calls.
        const key = node.arguments?.length ? `${call.operation}(${node.arguments.map(print).join(',')})` : call.operation;
        if (key !== paid) calls.set(key, call.perItem ? size : 1);
      }
      const subSelections = nodes.flatMap((n) => (n.selectionSet ? [n.selectionSet] : []));
      if (!subSelections.length) continue;
      const named = getNamedType(def.type);
      if (!isCompositeType(named)) continue;

      const own = sized?.fields.includes(node.name.value) ? multiplier * sized.size : multiplier;
      if (spec?.sizedFields?.length) {
        estimate.listNodes += own;
        visit(subSelections, named, own, { fields: spec.sizedFields, size });
      } else {
        estimate.listNodes += own * size;
        visit(subSelections, named, own * size, undefined, call?.perItem ? call.operation : undefined);
      }
    }
    let perObject = 0;
    for (const count of calls.values()) perObject += count;
    estimate.backendCalls += perObject * multiplier;
  };

  visit([operation.selectionSet], root, 1);
  return estimate;
}
