import { readFileSync } from 'node:fs';
const p = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const dt = new Map();
for (let i = 0; i < p.samples.length; i++) dt.set(p.samples[i], (dt.get(p.samples[i]) ?? 0) + (p.timeDeltas[i] ?? 0));
const by = new Map(); let busy = 0;
for (const n of p.nodes) { const t = dt.get(n.id) ?? 0; const cf = n.callFrame; if (cf.functionName === '(idle)') continue; busy += t; const k = cf.url ? cf.url.replace(/.*node_modules\//, 'nm/').replace(/.*dist\//, 'dist/') : cf.functionName; by.set(k, (by.get(k) ?? 0) + t); }
console.log('busy ms', (busy/1000).toFixed(0));
for (const [k, t] of [...by].sort((a, b) => b[1] - a[1]).slice(0, 40)) console.log((t / busy * 100).toFixed(1).padStart(5) + '%  ' + k);
