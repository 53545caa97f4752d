import { readFileSync } from 'node:fs';
const p = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const reqs = +process.argv[3];
const self = new Map(); let total = 0;
const walk = (n, stack) => {
  const cf = n.callFrame; const k = `${cf.functionName || '(anon)'} ${cf.url.replace(/.*node_modules\//, 'nm/').replace(/.*dist\//, '')}:${cf.lineNumber}`;
  const s = n.selfSize; total += s; self.set(k, (self.get(k) ?? 0) + s);
  for (const c of n.children) walk(c, stack);
};
walk(p.head, []);
console.log('total bytes/request', (total / reqs).toFixed(0));
for (const [k, t] of [...self].sort((a, b) => b[1] - a[1]).slice(0, +(process.argv[4] ?? 50))) console.log(String((t / reqs).toFixed(0)).padStart(7) + ' B/req  ' + k);
