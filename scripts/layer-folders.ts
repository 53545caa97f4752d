// The rules of `npm run layers` about folders rather than modules (scripts/layer-rules.ts runs
// them): src/ collapsed to one node per folder, whose imports, type-only and dynamic ones
// included, must form no cycle; and no module re-exports what another folder owns, so that
// every import names the folder it depends on.
import { posix } from 'node:path';
import ts from 'typescript';

/**
 * The files at the root of src/ that belong to a folder: the configuration's entry and its list
 * of names are the configuration's layer. Any other root file (main.ts) is a node of its own.
 */
export const ROOT_FILES: Readonly<Record<string, string>> = { 'src/config.ts': 'config', 'src/config-names.ts': 'config' };

/** The folder of src/ a file belongs to (`src/feed/cache.ts` → `feed`); undefined outside src/. */
export function folderOf(file: string): string | undefined {
  if (!file.startsWith('src/')) return undefined;
  const rest = file.slice('src/'.length);
  const slash = rest.indexOf('/');
  if (slash !== -1) return rest.slice(0, slash);
  return ROOT_FILES[file] ?? rest.replace(/\.[cm]?[jt]s$/, '');
}

/** One import of a module of ours: `target` is the file it names, `/`-separated, as a `.ts` path. */
export interface Import {
  file: string;
  line: number;
  target: string;
}

/** The file a relative specifier names, from `file`; undefined for a package. */
export function resolveSpecifier(file: string, specifier: string): string | undefined {
  if (!specifier.startsWith('./') && !specifier.startsWith('../')) return undefined;
  return posix.normalize(posix.join(posix.dirname(file), specifier)).replace(/\.([cm]?)js$/, '.$1ts');
}

/** Every module of ours a file imports: imports and re-exports, type-only ones, `import()` calls and `import()` types. */
export function importsOf(source: ts.SourceFile, file: string): Import[] {
  const found: Import[] = [];
  const add = (node: ts.Node, specifier: ts.Expression | undefined) => {
    if (!specifier || !ts.isStringLiteralLike(specifier)) return;
    const target = resolveSpecifier(file, specifier.text);
    if (target) found.push({ file, line: source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1, target });
  };
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) add(node, node.moduleSpecifier);
    else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference)) add(node, node.moduleReference.expression);
    else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) add(node, node.arguments[0]);
    else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) add(node, node.argument.literal);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** What another folder owns, exported again by `file`: where, and the folder it comes from. */
export function reExportsOf(source: ts.SourceFile, file: string): { line: number; what: string; from: string }[] {
  const own = folderOf(file);
  const line = (node: ts.Node) => source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;
  const elsewhere = (specifier: ts.Expression | undefined) => {
    if (!specifier || !ts.isStringLiteralLike(specifier)) return undefined;
    const target = resolveSpecifier(file, specifier.text);
    const folder = target && folderOf(target);
    return folder !== undefined && folder !== own ? folder : undefined;
  };
  // The names this file imports from other folders, by their local name.
  const imported = new Map<string, string>();
  for (const statement of source.statements) {
    if (!ts.isImportDeclaration(statement) || !statement.importClause) continue;
    const folder = elsewhere(statement.moduleSpecifier);
    if (!folder) continue;
    const clause = statement.importClause;
    if (clause.name) imported.set(clause.name.text, folder);
    const bindings = clause.namedBindings;
    if (bindings && ts.isNamespaceImport(bindings)) imported.set(bindings.name.text, folder);
    if (bindings && ts.isNamedImports(bindings)) for (const element of bindings.elements) imported.set(element.name.text, folder);
  }
  const found: { line: number; what: string; from: string }[] = [];
  for (const statement of source.statements) {
    if (ts.isExportDeclaration(statement)) {
      const folder = statement.moduleSpecifier ? elsewhere(statement.moduleSpecifier) : undefined;
      if (folder) {
        found.push({ line: line(statement), what: statement.exportClause ? statement.exportClause.getText(source) : '*', from: folder });
      } else if (!statement.moduleSpecifier && statement.exportClause && ts.isNamedExports(statement.exportClause)) {
        for (const element of statement.exportClause.elements) {
          const local = (element.propertyName ?? element.name).text;
          const from = imported.get(local);
          if (from) found.push({ line: line(element), what: local, from });
        }
      }
    } else if (ts.isExportAssignment(statement) && ts.isIdentifier(statement.expression)) {
      const from = imported.get(statement.expression.text);
      if (from) found.push({ line: line(statement), what: statement.expression.text, from });
    } else if (ts.isImportEqualsDeclaration(statement) && statement.modifiers?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword) && ts.isEntityName(statement.moduleReference)) {
      const from = imported.get(ts.isIdentifier(statement.moduleReference) ? statement.moduleReference.text : statement.moduleReference.getText(source).split('.')[0]!);
      if (from) found.push({ line: line(statement), what: statement.name.text, from });
    }
  }
  return found;
}

/** Folders that import each other, directly or through others, with an import that makes each step. */
export interface FolderCycle {
  /** Every folder of the tangle, sorted. */
  folders: string[];
  /** One way round it, from the first folder back to itself: an import per step. */
  steps: Import[];
}

/** The cycles of the folder graph the imports make: one per tangle of folders that reach each other. */
export function folderCycles(imports: readonly Import[]): FolderCycle[] {
  // The first import (by file, then line) that makes each edge, for the message.
  const edges = new Map<string, Map<string, Import>>();
  const sorted = [...imports].sort((a, b) => a.file.localeCompare(b.file) || a.line - b.line);
  for (const entry of sorted) {
    const from = folderOf(entry.file);
    const to = folderOf(entry.target);
    if (from === undefined || to === undefined || from === to) continue;
    let out = edges.get(from);
    if (!out) edges.set(from, (out = new Map()));
    if (!out.has(to)) out.set(to, entry);
    if (!edges.has(to)) edges.set(to, new Map());
  }
  // Tarjan's strongly connected components.
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const tangles: string[][] = [];
  const connect = (folder: string) => {
    index.set(folder, index.size);
    low.set(folder, index.get(folder)!);
    stack.push(folder);
    onStack.add(folder);
    for (const next of [...edges.get(folder)!.keys()].sort()) {
      if (!index.has(next)) {
        connect(next);
        low.set(folder, Math.min(low.get(folder)!, low.get(next)!));
      } else if (onStack.has(next)) low.set(folder, Math.min(low.get(folder)!, index.get(next)!));
    }
    if (low.get(folder) !== index.get(folder)) return;
    const tangle: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      tangle.push(member);
    } while (member !== folder);
    if (tangle.length > 1) tangles.push(tangle.sort());
  };
  for (const folder of [...edges.keys()].sort()) if (!index.has(folder)) connect(folder);
  return tangles
    .map((folders) => ({ folders, steps: shortestWayRound(folders, edges) }))
    .sort((a, b) => a.folders[0]!.localeCompare(b.folders[0]!));
}

/** The shortest way from the tangle's first folder back to it, within the tangle. */
function shortestWayRound(folders: readonly string[], edges: ReadonlyMap<string, ReadonlyMap<string, Import>>): Import[] {
  const start = folders[0]!;
  const within = new Set(folders);
  const cameFrom = new Map<string, string>();
  const queue = [start];
  for (let at = 0; at < queue.length; at++) {
    const folder = queue[at]!;
    for (const next of [...edges.get(folder)!.keys()].sort()) {
      if (!within.has(next)) continue;
      if (next === start) {
        const path = [folder];
        while (path[0] !== start) path.unshift(cameFrom.get(path[0]!)!);
        path.push(start);
        return path.slice(1).map((to, i) => edges.get(path[i]!)!.get(to)!);
      }
      if (!cameFrom.has(next)) {
        cameFrom.set(next, folder);
        queue.push(next);
      }
    }
  }
  return [];
}
