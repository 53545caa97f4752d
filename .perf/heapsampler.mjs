import v8 from 'node:v8';
import { appendFileSync } from 'node:fs';
import { PerformanceObserver, performance } from 'node:perf_hooks';
const file = `/tmp/heaps/${process.pid}.log`;
let scav = 0, mark = 0, scavMs = 0, markMs = 0;
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) {
    const k = e.detail?.kind ?? e.kind;
    if (k === 1) { scav++; scavMs += e.duration; } else { mark++; markMs += e.duration; }
  }
}).observe({ entryTypes: ['gc'] });
const t0 = Date.now();
let lastCpu = process.cpuUsage();
setInterval(() => {
  const s = Object.fromEntries(v8.getHeapSpaceStatistics().map((x) => [x.space_name, x]));
  const cpu = process.cpuUsage(lastCpu); lastCpu = process.cpuUsage();
  appendFileSync(file, `${((Date.now()-t0)/1000).toFixed(0)}s cpu=${((cpu.user+cpu.system)/1000).toFixed(0)}ms new=${(s.new_space.space_size/1048576).toFixed(1)}MB old=${(s.old_space.space_used_size/1048576).toFixed(1)}/${(s.old_space.space_size/1048576).toFixed(1)} scav=${scav}(${scavMs.toFixed(0)}ms) mark=${mark}(${markMs.toFixed(0)}ms) rss=${(process.memoryUsage.rss()/1048576).toFixed(0)}\n`);
  scav = mark = 0; scavMs = markMs = 0;
}, 1000).unref();
