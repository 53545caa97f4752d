// The generated body of a mutation, run as graphql-jit runs it, with one change at a time.
const variant = process.argv[2] ?? 'as-is';
let body = `function query (__context) {
  "use strict";
__context.queue = [];__context.data = ({ "__typename": "Mutation" })
    __context.finalResolve = () => {};
    __context.resolve = (context) => {
      if (context.jobCounter >= context.queue.length) { context.finalResolve(context); return; }
      context.queue[context.jobCounter++](context);
    };
    if (__context.queue.length > 0) { __context.jobCounter = 1; __context.queue[0](__context); }
    if (__context.promiseCounter > 0) {
      return new Promise(resolve => __context.finalResolve = resolve);
    }
  return undefined;
  }`;
if (variant === 'no-promise') body = body.replace('return new Promise(resolve => __context.finalResolve = resolve);', 'return 1;');
if (variant === 'no-queue') body = body.replace('__context.queue = [];', '__context.queue = EMPTY;').replace('function query', 'function query');
if (variant === 'no-resolve') body = body.replace(/__context\.resolve = \(context\) => \{[\s\S]*?\n    \};/, '');
if (variant === 'no-final') body = body.replace('__context.finalResolve = () => {};', '');
if (variant === 'query') body = `function query (__context) { "use strict"; __context.data = ({ "__typename": "Query" }); return undefined; }`;
const EMPTY = [];
const func = new Function('EMPTY', 'return ' + body)(EMPTY);
function run(rootValue, context, variables) {
  const executionContext = { rootValue, context, variables, promiseCounter: 0, data: {}, nullErrors: [], errors: [] };
  const result = func.call(null, executionContext);
  return { data: executionContext.data };
}
let done = 0;
async function request() {
  const ctx = { big: new Array(200).fill(0).map((_, i) => ({ i, s: 'x' + i })) };
  await new Promise((r) => setImmediate(r));
  const result = await run(undefined, ctx, {});
  if (!result.data) throw new Error('no data');
  await new Promise((r) => setImmediate(r));
  done++;
}
async function worker(until) { while (performance.now() < until) await request(); }
const until = performance.now() + 4000;
await Promise.all(Array.from({ length: 20 }, () => worker(until)));
console.error(variant, 'requests', done);
