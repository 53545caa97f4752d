import { compileQuery } from 'graphql-jit';
import { parse, buildSchema } from 'graphql';
const schema = buildSchema('type Query { a: Int } type Mutation { m(x: Int): Int }');
const text = process.argv[2] ?? 'mutation { __typename }';
const c = compileQuery(schema, parse(text));
let done = 0;
async function request() {
  const ctx = { big: new Array(200).fill(0).map((_, i) => ({ i, s: 'x' + i })) };
  await new Promise((r) => setImmediate(r));
  const result = await c.query(undefined, ctx, {});
  if (!result.data) throw new Error('no data');
  await new Promise((r) => setImmediate(r));
  done++;
}
async function worker(until) { while (performance.now() < until) await request(); }
const until = performance.now() + 6000;
await Promise.all(Array.from({ length: 20 }, () => worker(until)));
console.error('requests', done);
