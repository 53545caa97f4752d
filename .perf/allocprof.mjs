import { Session } from 'node:inspector';
import { writeFileSync } from 'node:fs';
const s = new Session(); s.connect();
const post = (m, p) => new Promise((res, rej) => s.post(m, p, (e, r) => (e ? rej(e) : res(r))));
process.on('SIGUSR1', async () => {
  await post('HeapProfiler.enable');
  await post('HeapProfiler.startSampling', { samplingInterval: 256, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true });
  writeFileSync(`/tmp/alloc-started-${process.pid}`, '');
});
process.on('SIGUSR2', async () => {
  const { profile } = await post('HeapProfiler.stopSampling');
  writeFileSync(`/tmp/alloc-${process.pid}.json`, JSON.stringify(profile));
});
