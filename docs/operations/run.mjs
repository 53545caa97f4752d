#!/usr/bin/env node
// Runs the example operations of this folder against a running BFF (`npm start`).
//
//   node docs/operations/run.mjs campaign                 one operation, with campaign.variables.json
//   node docs/operations/run.mjs all                      every operation, in the order of README.md
//   BFF_URL=http://localhost:4000/graphql TOKEN=demo-aggregator-token node docs/operations/run.mjs campaigns
//   APP_KEY=demo-app-key node docs/operations/run.mjs offer-feed   as a mobile app (X-App-Key, no partner token)
import { readFileSync } from 'node:fs';

const dir = new URL('./', import.meta.url);
const url = process.env.BFF_URL ?? 'http://localhost:4000/graphql';
const token = process.env.TOKEN ?? 'demo-store-token';
const appKey = process.env.APP_KEY;

/** The operations in the order README.md lists them (mutations rely on that order). */
export function operationNames() {
  const readme = readFileSync(new URL('README.md', dir), 'utf8');
  return [...readme.matchAll(/\]\(\.\/([a-z-]+)\.graphql\)/g)].map((m) => m[1]);
}

export function load(name) {
  return {
    query: readFileSync(new URL(`${name}.graphql`, dir), 'utf8'),
    variables: JSON.parse(readFileSync(new URL(`${name}.variables.json`, dir), 'utf8')),
  };
}

async function run(name) {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(appKey ? { 'x-app-key': appKey } : { authorization: `Bearer ${token}` }) },
    body: JSON.stringify(load(name)),
  });
  const body = await response.json();
  console.log(`# ${name} (HTTP ${response.status})`);
  console.log(JSON.stringify(body, null, 2));
  return body;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [name] = process.argv.slice(2);
  if (!name) {
    console.error(`usage: node docs/operations/run.mjs <${operationNames().join('|')}|all>`);
    process.exit(2);
  }
  for (const each of name === 'all' ? operationNames() : [name]) await run(each);
}
