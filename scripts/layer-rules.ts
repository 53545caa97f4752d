// The rules of `npm run layers` that dependency-cruiser cannot see, because they are about what a
// module does with what it imports rather than what it imports, or about folders rather than
// modules:
//
// - kept-collections: every store whose size a client can influence is bounded, so a `Map` or a
//   `Set` kept beyond one call (at module level, in a class field, or in a closure a function
//   hands out) is made only in src/bounded/ (BoundedMemory), or says why nothing a client does can
//   grow it: a `// bounded: <why>` comment on its declaration, a `ReadonlyMap`/`ReadonlySet` type
//   (nothing can add to it), or an entry of ALLOWED below.
// - keyed-hashes: anything derived from a partner token is a keyed hash made in src/secrets/, so
//   `createHash` and `createHmac` of node:crypto are imported only there, and by the modules
//   ALLOWED below for digests that are not made from a secret.
// - refusal-not-outage: a 4xx from the campaign API never opens the circuit breaker. A status is
//   told to be an outage (`HttpStatusError`) or a refusal in one place, `blames()` in
//   src/campaign-api/envelope.ts, and the breaker is told of an attempt's outcome in one place,
//   src/campaign-api/backend-call.ts: `HttpStatusError` is made (or extended) nowhere else, and
//   `Breaker` is imported, and a breaker's `admit`, `answered`, `failed` or `abandoned` called,
//   only where ALLOWED below says.
// - folder-cycles: src/ collapsed to one node per folder (scripts/layer-folders.ts) has no cycle,
//   type-only and dynamic imports included.
// - cross-folder-re-exports: a module exports again nothing another folder owns (`export * from
//   '../x/...'`, `export { a } from '../x/...'`, or an imported name in `export { a }`): whoever
//   uses it imports it from the folder that owns it, so the folder graph shows every dependency.
//
// `tsx scripts/layer-rules.ts [folder]` checks src/ (or the folder given) and exits 1 on a
// violation; test/unit/layer-rules.test.ts shows it refusing each kind.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { folderCycles, folderOf, importsOf, reExportsOf, type Import } from './layer-folders.js';

export interface Violation {
  file: string;
  line: number;
  rule: 'kept-collections' | 'keyed-hashes' | 'refusal-not-outage' | 'folder-cycles' | 'cross-folder-re-exports';
  message: string;
}

interface Allowance {
  /** A path under the checked folder, `/`-separated; a folder ends with `/`. */
  path: string;
  /** The variable or field (kept-collections), the import (keyed-hashes), the class or method (refusal-not-outage); `*` for any. */
  name: string;
  reason: string;
}

/** What may keep a collection or hash without a comment of its own, and why. */
export const ALLOWED: Record<Violation['rule'], readonly Allowance[]> = {
  'kept-collections': [
    { path: 'src/bounded/', name: '*', reason: 'the bounded stores themselves' },
    { path: 'src/emulator/', name: '*', reason: 'the embedded REST API: its state is the partner data it stands in for, for development and tests' },
    { path: 'src/server/graphql-handler.ts', name: 'inFlight', reason: 'the requests in flight, each removed when answered' },
    { path: 'src/server/http-server.ts', name: 'unanswered', reason: 'the responses not yet answered, each removed when answered' },
    { path: 'src/server/dependencies.ts', name: '*', reason: 'the dependencies the composition root names' },
    { path: 'src/subscriptions/websocket.ts', name: 'open', reason: 'the open sockets, each removed when closed' },
    { path: 'src/subscriptions/sse.ts', name: 'streams', reason: 'the open streams, each removed when closed' },
  ],
  'keyed-hashes': [
    { path: 'src/secrets/', name: '*', reason: 'the keyed hashes themselves' },
    { path: 'src/pipeline/documents.ts', name: 'createHash', reason: "the SHA-256 of a document's text: the name persisted queries and trusted documents give it" },
    { path: 'src/pipeline/response-cache.ts', name: 'createHash', reason: 'the ETag of an answer' },
    { path: 'src/http/explorer.ts', name: 'createHash', reason: "the ETags of the explorer's files" },
    { path: 'src/campaigns/positions.ts', name: 'createHash', reason: "a pin code's place in a pin cursor" },
    { path: 'src/graphql/pagination.ts', name: 'createHmac', reason: "signs a cursor's position under CURSOR_SECRET, over the partner's keyed hash" },
  ],
  'refusal-not-outage': [
    { path: 'src/campaign-api/envelope.ts', name: 'HttpStatusError', reason: "blames(): the one place a status is told to be the backend's failure (an outage) or the request's (a refusal)" },
    { path: 'src/campaign-api/resilience.ts', name: '*', reason: 'the breaker itself' },
    { path: 'src/campaign-api/backend-call.ts', name: '*', reason: "tells the breaker of each attempt: an outage fails it, any answer (a refusal too) is an answer" },
    { path: 'src/campaign-api/http-client.ts', name: 'Breaker', reason: "makes each client's one breaker, hands it to the calls, and reads its state" },
  ],
  'folder-cycles': [],
  'cross-folder-re-exports': [],
};

const KEPT = new Set(['Map', 'Set']);
const HASHING = new Set(['createHash', 'createHmac']);
/** The outage error, and what tells the breaker of an attempt. */
const OUTAGE = 'HttpStatusError';
const BREAKER = 'Breaker';
const BREAKER_TELLS = new Set(['admit', 'answered', 'failed', 'abandoned']);
/** A marker says why: a few words at least. */
const MARKER = /\bbounded:\s*\S.{8,}/;
/** Array methods that call their callback before they return: a collection it reads is still one call's. */
const SYNC_CALLBACKS = new Set(['map', 'filter', 'forEach', 'some', 'every', 'find', 'findIndex', 'findLast', 'findLastIndex', 'flatMap', 'reduce', 'sort']);

const allowed = (rule: Violation['rule'], file: string, name: string) =>
  ALLOWED[rule].some((a) => (a.path.endsWith('/') ? file.startsWith(a.path) : file === a.path) && (a.name === '*' || a.name === name));

const isFunctionLike = (node: ts.Node): node is ts.FunctionLikeDeclaration =>
  ts.isFunctionDeclaration(node) ||
  ts.isFunctionExpression(node) ||
  ts.isArrowFunction(node) ||
  ts.isMethodDeclaration(node) ||
  ts.isConstructorDeclaration(node) ||
  ts.isGetAccessorDeclaration(node) ||
  ts.isSetAccessorDeclaration(node);

function enclosingFunction(node: ts.Node): ts.FunctionLikeDeclaration | undefined {
  for (let at = node.parent; at; at = at.parent) if (isFunctionLike(at)) return at;
  return undefined;
}

/** The expression's place once parentheses and type assertions are looked through. */
function holderOf(node: ts.Expression): { holder: ts.Node; child: ts.Node } {
  let child: ts.Node = node;
  let holder = node.parent;
  while (ts.isParenthesizedExpression(holder) || ts.isAsExpression(holder) || ts.isSatisfiesExpression(holder) || ts.isNonNullExpression(holder) || ts.isTypeAssertionExpression(holder)) {
    child = holder;
    holder = holder.parent;
  }
  return { holder, child };
}

/** The statement or class member a node belongs to: where a marker comment is written. */
function statementOf(node: ts.Node): ts.Node {
  let at = node;
  while (at.parent && !ts.isSourceFile(at.parent) && !ts.isBlock(at.parent) && !ts.isClassLike(at.parent) && !ts.isModuleBlock(at.parent) && !ts.isCaseClause(at.parent)) at = at.parent;
  return at;
}

function hasMarker(node: ts.Node, source: ts.SourceFile): boolean {
  const statement = statementOf(node);
  const text = source.text;
  const comments = [...(ts.getLeadingCommentRanges(text, statement.getFullStart()) ?? []), ...(ts.getTrailingCommentRanges(text, statement.getEnd()) ?? [])];
  return comments.some((range) => MARKER.test(text.slice(range.pos, range.end)));
}

const readonlyType = (type: ts.TypeNode | undefined) => type !== undefined && ts.isTypeReferenceNode(type) && /^Readonly(Map|Set)$/.test(type.typeName.getText());

/** Whether a function made inside `owner` may be called after `owner` returned: handed out, stored, or given to a call that keeps it. */
function handedOut(fn: ts.FunctionLikeDeclaration, owner: ts.FunctionLikeDeclaration): boolean {
  const parent = fn.parent;
  if (ts.isCallExpression(parent) && parent.expression === fn) return false; // called at once
  if (ts.isParenthesizedExpression(parent) && ts.isCallExpression(parent.parent) && parent.parent.expression === parent) return false;
  if (ts.isCallExpression(parent)) {
    // A callback an array method calls at once is part of this call; any other call may keep it.
    return !(ts.isPropertyAccessExpression(parent.expression) && SYNC_CALLBACKS.has(parent.expression.name.text));
  }
  // A promise's executor runs at once (what it hands on is judged on its own).
  if (ts.isNewExpression(parent)) return !(ts.isIdentifier(parent.expression) && parent.expression.text === 'Promise');
  const name = ts.isFunctionDeclaration(fn) ? fn.name : ts.isVariableDeclaration(parent) && ts.isIdentifier(parent.name) ? parent.name : undefined;
  if (name) {
    // A local function that is only ever called is part of the calls that call it.
    let kept = false;
    const look = (node: ts.Node): void => {
      if (kept) return;
      if (ts.isIdentifier(node) && node.text === name.text && node !== name) {
        const call = node.parent;
        if (!(ts.isCallExpression(call) && call.expression === node)) kept = true;
        else {
          const caller = enclosingFunction(node);
          if (caller && caller !== owner && caller !== fn && handedOut(caller, owner)) kept = true;
        }
      }
      ts.forEachChild(node, look);
    };
    if (owner.body) look(owner.body);
    return kept;
  }
  return true;
}

/** Whether the collection in `declaration` (a local of `owner`) may outlive the call of `owner`. */
function escapes(declaration: ts.VariableDeclaration, owner: ts.FunctionLikeDeclaration): boolean {
  const name = (declaration.name as ts.Identifier).text;
  const readonlyReturn = readonlyType(owner.type);
  let escaped = false;
  const visit = (node: ts.Node): void => {
    if (escaped) return;
    if (ts.isIdentifier(node) && node.text === name && node !== declaration.name) {
      const parent = node.parent;
      const isProperty = (ts.isPropertyAccessExpression(parent) && parent.name === node) || (ts.isPropertyAssignment(parent) && parent.name === node);
      if (!isProperty) {
        // Read by a function that may run after this call returned.
        for (let fn = enclosingFunction(node); fn && fn !== owner; fn = enclosingFunction(fn)) {
          if (handedOut(fn, owner)) escaped = true;
        }
        const returned = ts.isReturnStatement(parent) || (ts.isArrowFunction(parent) && parent.body === node);
        // Handed out: returned (unless as a read-only collection), put in an object or a list, or stored.
        if ((returned && !readonlyReturn) || ts.isShorthandPropertyAssignment(parent) || ts.isPropertyAssignment(parent) || ts.isArrayLiteralExpression(parent)) escaped = true;
        else if (ts.isBinaryExpression(parent) && parent.right === node && parent.operatorToken.kind === ts.SyntaxKind.EqualsToken) escaped = true;
      }
    }
    ts.forEachChild(node, visit);
  };
  if (owner.body) visit(owner.body);
  return escaped;
}

/** The declaration an identifier assigned in `from` names: the nearest enclosing scope's. */
function declarationOf(name: string, from: ts.Node): ts.VariableDeclaration | undefined {
  for (let scope = from.parent; scope; scope = scope.parent) {
    if (!(ts.isBlock(scope) || ts.isSourceFile(scope) || isFunctionLike(scope) || ts.isModuleBlock(scope))) continue;
    let found: ts.VariableDeclaration | undefined;
    const look = (node: ts.Node): void => {
      if (found || (node !== scope && (isFunctionLike(node) || ts.isBlock(node)))) return;
      if (ts.isVariableDeclaration(node) && ts.isIdentifier(node.name) && node.name.text === name) found = node;
      else ts.forEachChild(node, look);
    };
    ts.forEachChild(scope, look);
    if (found) return found;
  }
  return undefined;
}

function keptCollection(node: ts.NewExpression, source: ts.SourceFile): { name: string; why: string } | undefined {
  const { holder, child } = holderOf(node);
  if (ts.isPropertyDeclaration(holder)) {
    return readonlyType(holder.type) ? undefined : { name: holder.name.getText(), why: 'a class field' };
  }
  if (ts.isBinaryExpression(holder) && holder.right === child && holder.operatorToken.kind === ts.SyntaxKind.EqualsToken) {
    if (!ts.isIdentifier(holder.left)) return { name: holder.left.getText(), why: 'stored in a property' };
    const declaration = declarationOf(holder.left.text, holder);
    if (readonlyType(declaration?.type)) return undefined;
    const owner = declaration && enclosingFunction(declaration);
    if (!declaration || !owner) return { name: holder.left.text, why: 'a module-level variable' };
    if (owner !== enclosingFunction(holder) || escapes(declaration, owner)) return { name: holder.left.text, why: 'a variable a closure keeps' };
    return undefined;
  }
  if (ts.isVariableDeclaration(holder) && ts.isIdentifier(holder.name)) {
    // Nothing can add to a read-only collection once it is made.
    if (readonlyType(holder.type)) return undefined;
    const owner = enclosingFunction(holder);
    if (!owner) return { name: holder.name.text, why: 'a module-level variable' };
    return escapes(holder, owner) ? { name: holder.name.text, why: 'a local a closure or the caller keeps' } : undefined;
  }
  if (ts.isReturnStatement(holder) || ts.isPropertyAssignment(holder) || ts.isArrayLiteralExpression(holder) || (ts.isArrowFunction(holder) && holder.body === child)) {
    return { name: '*', why: 'handed out' };
  }
  void source;
  return undefined;
}

const parse = (file: string, text: string) => ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);

/** The violations of one file; `file` is its path under the checked folder, `/`-separated. */
export function checkSource(file: string, text: string): Violation[] {
  return checkParsed(parse(file, text), file);
}

function checkParsed(source: ts.SourceFile, file: string): Violation[] {
  const violations: Violation[] = [];
  const report = (node: ts.Node, rule: Violation['rule'], message: string) =>
    violations.push({ file, line: source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1, rule, message });
  const visit = (node: ts.Node): void => {
    if (ts.isNewExpression(node) && ts.isIdentifier(node.expression) && KEPT.has(node.expression.text)) {
      const kept = keptCollection(node, source);
      if (kept && !allowed('kept-collections', file, kept.name) && !hasMarker(node, source)) {
        report(
          node,
          'kept-collections',
          `a ${node.expression.text} kept beyond one call (${kept.why}${kept.name === '*' ? '' : `: ${kept.name}`}): keep it in a BoundedMemory (src/bounded/), type it Readonly${node.expression.text}, or say why no client can grow it in a "// bounded: <why>" comment`,
        );
      }
    }
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier) && /^(node:)?crypto$/.test(node.moduleSpecifier.text)) {
      const clause = ts.isImportDeclaration(node) ? node.importClause : undefined;
      const named = clause?.namedBindings && ts.isNamedImports(clause.namedBindings) ? clause.namedBindings.elements : ts.isExportDeclaration(node) && node.exportClause && ts.isNamedExports(node.exportClause) ? node.exportClause.elements : undefined;
      const whole = clause ? clause.name !== undefined || (clause.namedBindings !== undefined && ts.isNamespaceImport(clause.namedBindings)) : ts.isExportDeclaration(node) && !node.exportClause;
      const names = [...(named ?? []).map((e) => (e.propertyName ?? e.name).text).filter((n) => HASHING.has(n)), ...(whole ? ['*'] : [])];
      for (const name of names) {
        if (allowed('keyed-hashes', file, name)) continue;
        report(node, 'keyed-hashes', `${name === '*' ? 'node:crypto as a whole' : name} imported outside src/secrets/: a hash of anything a client sends is a keyed hash made there (keyedHash), never an unkeyed one`);
      }
    }
    if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword && node.arguments[0] && ts.isStringLiteral(node.arguments[0]) && /^(node:)?crypto$/.test(node.arguments[0].text) && !allowed('keyed-hashes', file, '*')) {
      report(node, 'keyed-hashes', 'node:crypto imported dynamically outside src/secrets/: make keyed hashes there');
    }
    refusalNotOutage(node, file, report);
    ts.forEachChild(node, visit);
  };
  visit(source);
  for (const found of reExportsOf(source, file)) {
    violations.push({
      file,
      line: found.line,
      rule: 'cross-folder-re-exports',
      message: `${found.what} re-exported from src/${found.from}/: import it from src/${found.from}/ where it is used, so that every dependency on a folder names it`,
    });
  }
  return violations;
}

/** Whether the name `Breaker` is brought in here: imported, exported again, or read off a namespace. */
function reachesBreaker(node: ts.Identifier): boolean {
  const parent = node.parent;
  return (
    ts.isImportSpecifier(parent) ||
    ts.isExportSpecifier(parent) ||
    (ts.isPropertyAccessExpression(parent) && parent.name === node) ||
    (ts.isQualifiedName(parent) && parent.right === node)
  );
}

/** A construction of the outage error, or a use of the breaker, where ALLOWED does not say. */
function refusalNotOutage(node: ts.Node, file: string, report: (node: ts.Node, rule: Violation['rule'], message: string) => void): void {
  const rule = 'refusal-not-outage';
  if (ts.isNewExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === OUTAGE && !allowed(rule, file, OUTAGE)) {
    report(node, rule, `${OUTAGE} made outside blames() (src/campaign-api/envelope.ts): only there is a status told to be an outage rather than a refusal, and an outage counts towards the circuit breaker`);
  }
  if (ts.isHeritageClause(node) && node.types.some((t) => ts.isIdentifier(t.expression) && t.expression.text === OUTAGE) && !allowed(rule, file, OUTAGE)) {
    report(node, rule, `a class extending ${OUTAGE} outside src/campaign-api/envelope.ts: it would count towards the circuit breaker as an outage`);
  }
  if (ts.isIdentifier(node) && node.text === BREAKER && reachesBreaker(node) && !allowed(rule, file, BREAKER)) {
    report(node, rule, `${BREAKER} imported outside src/campaign-api/backend-call.ts: only the backend call tells the circuit breaker of an attempt, so that no refusal counts towards it`);
  }
  if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression) && BREAKER_TELLS.has(node.expression.name.text) && /breaker/i.test(node.expression.expression.getText()) && !allowed(rule, file, node.expression.name.text)) {
    report(node, rule, `the circuit breaker told of an attempt (${node.expression.name.text}) outside src/campaign-api/backend-call.ts: only the backend call counts an outage, and never a refusal`);
  }
}

/** The modules under `folder`; generated ones are read for their imports only (the generator writes them, not us). */
function sources(folder: string, generated = false): { path: string; generated: boolean }[] {
  return readdirSync(folder).flatMap((name) => {
    const path = join(folder, name);
    if (statSync(path).isDirectory()) return sources(path, generated || name === 'generated');
    return /\.ts$/.test(name) && !/\.d\.ts$/.test(name) ? [{ path, generated }] : [];
  });
}

/**
 * The violations of a set of files, those about folders included; each `file` is a path under the
 * checked folder, `/`-separated. A generated file counts in the folder graph only.
 */
export function checkSources(files: readonly { file: string; text: string; generated?: boolean }[]): Violation[] {
  const imports: Import[] = [];
  const violations = files.flatMap(({ file, text, generated }) => {
    const source = parse(file, text);
    imports.push(...importsOf(source, file));
    return generated ? [] : checkParsed(source, file);
  });
  for (const cycle of folderCycles(imports)) {
    const first = cycle.steps[0]!;
    const way = cycle.steps.map((step) => `${folderOf(step.file)} → ${folderOf(step.target)} (${step.file}:${step.line} imports ${step.target})`).join(', ');
    violations.push({
      file: first.file,
      line: first.line,
      rule: 'folder-cycles',
      message: `the folders ${cycle.folders.join(', ')} import each other: ${way}; move what one of them owns to the layer where it belongs`,
    });
  }
  return violations;
}

/** Every violation under `root` (the repository), in the files of `folder`. */
export function checkFolder(root: string, folder = join(root, 'src')): Violation[] {
  return checkSources(sources(folder).map(({ path, generated }) => ({ file: relative(root, path).split(sep).join('/'), text: readFileSync(path, 'utf8'), generated })));
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const root = fileURLToPath(new URL('..', import.meta.url));
  const folder = process.argv[2];
  const violations = folder ? checkFolder(folder, join(folder, 'src')) : checkFolder(root);
  for (const v of violations) process.stderr.write(`${v.file}:${v.line} [${v.rule}] ${v.message}\n`);
  if (violations.length) {
    process.stderr.write(`\nx ${violations.length} layer rule violation${violations.length === 1 ? '' : 's'} (scripts/layer-rules.ts)\n`);
    process.exit(1);
  }
}
