// Preloaded (`node --import`) into a child process whose memory a test measures. On SIGUSR2 it
// collects garbage (full, twice) and writes one line to stderr:
//   memory-probe {"rssBytes":…,"heapUsedBytes":…,"eventLoopDelayMaxMs":…}
// so that what is measured is what the process keeps, not the garbage of the moment. The event
// loop's longest delay since the previous sample is reported for the record, never asserted.
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc');
const delay = monitorEventLoopDelay({ resolution: 10 });
delay.enable();

process.on('SIGUSR2', () => {
  const eventLoopDelayMaxMs = delay.max / 1e6;
  gc();
  gc();
  const { rss, heapUsed } = process.memoryUsage();
  process.stderr.write(`memory-probe ${JSON.stringify({ rssBytes: rss, heapUsedBytes: heapUsed, eventLoopDelayMaxMs })}\n`);
  // The collection just made delays the loop too; it is recorded on the monitor's next tick,
  // which is past by the time this runs.
  setTimeout(() => delay.reset(), 50);
});
