import {
  Kind,
  getDirectiveValues,
  getNamedType,
  isCompositeType,
  print,
  isObjectType,
  isInterfaceType,
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
 * actual `first`/`ids` arguments (variables included). Refusing on this estimate means a query
 * that would fan out into thousands of calls never makes the first one.
 */
export interface CostEstimate {
  backendCalls: number;
  listNodes: number;
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

  const fieldsOf = (selectionSet: SelectionSetNode, seen: Set<string>, out: FieldNode[] = []): FieldNode[] => {
    for (const s of selectionSet.selections) {
      if (s.kind === Kind.FIELD) out.push(s);
      else if (s.kind === Kind.INLINE_FRAGMENT) fieldsOf(s.selectionSet, seen, out);
      else if (!seen.has(s.name.value)) {
        const fragment = fragments.get(s.name.value);
        if (fragment) fieldsOf(fragment.selectionSet, new Set(seen).add(s.name.value), out);
      }
    }
    return out;
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

  const visit = (
    selectionSet: SelectionSetNode,
    type: GraphQLCompositeType,
    multiplier: number,
    sized?: { fields: string[]; size: number },
  ): void => {
    if (++visits > MAX_VISITS) throw new Error('query too large to estimate');
    const fieldMap = isObjectType(type) || isInterfaceType(type) ? type.getFields() : undefined;
    const calls = new Set<string>();
    for (const node of fieldsOf(selectionSet, new Set())) {
      const def = fieldMap?.[node.name.value];
      if (!def) continue; // __typename, introspection, or a union's members: no backend cost
      const call = directive<{ operation: string }>(def, backendCall);
      // Fields of one object share a call (the loader); different arguments make different calls.
      if (call) calls.add(node.arguments?.length ? `${call.operation}(${node.arguments.map(print).join(',')})` : call.operation);
      if (!node.selectionSet) continue;
      const named = getNamedType(def.type);
      if (!isCompositeType(named)) continue;

      const own = sized?.fields.includes(node.name.value) ? multiplier * sized.size : multiplier;
      const spec = directive<ListSize>(def, listSize);
      if (spec?.sizedFields?.length) {
        estimate.listNodes += own;
        visit(node.selectionSet, named, own, { fields: spec.sizedFields, size: sizeOf(node, def, spec) });
      } else {
        // Lists that can be long carry @listSize; an unannotated one counts as one item.
        const size = spec ? sizeOf(node, def, spec) : 1;
        estimate.listNodes += own * size;
        visit(node.selectionSet, named, own * size);
      }
    }
    estimate.backendCalls += calls.size * multiplier;
  };

  visit(operation.selectionSet, root, 1);
  return estimate;
}
