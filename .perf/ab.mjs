// usage: node .perf/ab.mjs IDLE_S "node args" [rounds]
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import autocannon from 'autocannon';
const [idle = '40', args = '', rounds = '3'] = process.argv.slice(2);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const sysOf = (pid) => { const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' '); return (+f[12]) * 10000; };
const fltOf = (pid) => { const f = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" "); return +f[7] + 1000 * +f[9]; };
import { readdirSync } from 'node:fs';
const csOf = (pid) => { let v = 0, n = 0, th = {}; for (const t of readdirSync(`/proc/${pid}/task`)) { const st = readFileSync(`/proc/${pid}/task/${t}/status`, 'utf8'); const name = /Name:\s+(.*)/.exec(st)[1]; const a = +/^voluntary_ctxt_switches:\s+(\d+)/m.exec(st)[1], b = +/nonvoluntary_ctxt_switches:\s+(\d+)/.exec(st)[1]; v += a; n += b; const f = readFileSync(`/proc/${pid}/task/${t}/stat`, 'utf8').split(') ')[1].split(' '); th[name + t] = (+f[11] + +f[12]); } return { v, n, th }; };
const cpuOf = (pid) => { const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' '); return (+f[11] + +f[12]) * 10000; }; // µs
function start(cmd, env, core) {
  const c = spawn('taskset', ['-c', String(core), process.execPath, ...cmd], { cwd: '/work/main', env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'inherit'] });
  return c;
}
async function ready(url) { for (let i = 0; i < 200; i++) { try { const r = await fetch(url); if (r.ok) return; } catch {} await sleep(100); } throw new Error('not ready ' + url); }
const ep = 40000 + Math.floor(Math.random() * 1000), bp = ep + 1, fp = ep + 2;
const emu = start(['dist/src/emulator/main.js'], { EMULATOR_PORT: String(ep), EMULATOR_HOST: '127.0.0.1' }, 1);
const bff = start([...args.split(/\s+/).filter(Boolean), process.env.ENTRY ?? 'dist/src/main.js'], { ...JSON.parse(process.env.BFFENV ?? '{}'), NODE_ENV: 'production', CAMPAIGN_API_URL: `http://127.0.0.1:${ep}`, PORT: String(bp), HOST: '127.0.0.1', CLIENT_RATE_LIMIT: '0' }, 0);
let floor;
try {
  await ready(`http://127.0.0.1:${ep}/_emulator/calls`); await ready(`http://127.0.0.1:${bp}/healthz`); 
  const body = JSON.stringify({ query: 'query Categories { categories { id name } }' });
  const headers = { 'content-type': 'application/json', accept: 'application/json', authorization: 'Bearer demo-store-token' };
  let text = '';
  for (let i = 0; i < 2; i++) text = await (await fetch(`http://127.0.0.1:${bp}/graphql`, { method: 'POST', headers, body })).text();
  floor = start([...(process.env.FLOORARGS ?? '').split(/\s+/).filter(Boolean), '--import', 'tsx', 'bench/floor-server.ts'], { PORT: String(fp), FLOOR_BODY: text }, 0);
  await sleep(3000);
  const target = process.env.TARGET === 'floor' ? floor : bff; const tport = process.env.TARGET === 'floor' ? fp : bp;
  await sleep(+idle * 1000);
  const out = [];
  for (let r = 0; r < +rounds; r++) {
    const st = process.env.STRACE && r === +rounds - 1 ? spawn('strace', ['-c', '-f', '-p', String(target.pid), '-o', process.env.STRACE], { stdio: 'ignore' }) : null;
    if (st) await sleep(500);
    if (process.env.ALLOC && r === +rounds - 1) { process.kill(target.pid, 'SIGUSR1'); await sleep(300); }
    const c0 = cpuOf(target.pid), s0 = sysOf(target.pid), m0 = fltOf(target.pid), cs0 = csOf(target.pid);
    const res = await autocannon({ url: `http://127.0.0.1:${tport}/graphql`, method: 'POST', headers, body, connections: 50, duration: 8 });
    const us = (cpuOf(target.pid) - c0) / res.requests.total; const sys = (sysOf(target.pid) - s0) / res.requests.total; const flt = (fltOf(target.pid) - m0) / res.requests.total; const cs1 = csOf(target.pid); const vcs = (cs1.v - cs0.v) / res.requests.total, ncs = (cs1.n - cs0.n) / res.requests.total; const thr = Object.entries(cs1.th).map(([k, x]) => [k, x - (cs0.th[k] ?? 0)]).filter(([, x]) => x > 0).map(([k, x]) => k + ':' + x).join(',');
    if (st) { st.kill('SIGINT'); await sleep(500); }
    if (process.env.ALLOC && r === +rounds - 1) { process.kill(target.pid, 'SIGUSR2'); await sleep(3000); console.log('requests in profiled round', res.requests.total); }
    out.push(`${res.requests.average.toFixed(0)}req/s ${us.toFixed(1)}µs (sys ${sys.toFixed(1)}, faults/req ${flt.toFixed(3)}, cs/req ${vcs.toFixed(3)}+${ncs.toFixed(3)}, thread ticks ${thr})`);
    await sleep(3000);
  }
  console.log(`idle=${idle} args=[${args}] ${out.join(' | ')}`);
} finally { for (const c of [emu, bff, floor]) c?.kill(); }
