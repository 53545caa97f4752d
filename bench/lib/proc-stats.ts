import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';

/** Linux process accounting from /proc: CPU time and resident memory of another process. */

let ticksPerSecond: number | undefined;
function clockTicks(): number {
  if (ticksPerSecond === undefined) {
    try {
      ticksPerSecond = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
    } catch {
      ticksPerSecond = 100; // the value on every common Linux build
    }
  }
  return ticksPerSecond;
}

/** User + system CPU seconds the process has used so far. */
export function cpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // The command name (field 2) may contain spaces and parentheses: count fields after its last ')'.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // Field 3 (state) is fields[0], so utime (14) and stime (15) are fields[11] and fields[12].
  const utime = Number(fields[11]);
  const stime = Number(fields[12]);
  return (utime + stime) / clockTicks();
}

function statusKb(pid: number, key: 'VmRSS' | 'VmHWM'): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const match = new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(status);
  if (!match) throw new Error(`/proc/${pid}/status has no ${key} line`);
  return Number(match[1]);
}

export const rssMb = (pid: number): number => statusKb(pid, 'VmRSS') / 1024;
export const peakRssMb = (pid: number): number => statusKb(pid, 'VmHWM') / 1024;

/**
 * Resets the peak-RSS mark (VmHWM) to the current RSS, so the next peak read covers one scenario
 * only. Returns false where the kernel refuses it; the peak is then the process's lifetime peak.
 */
export function resetPeakRss(pid: number): boolean {
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, '5');
    return true;
  } catch {
    return false;
  }
}

export interface CpuUse {
  /** CPU seconds the process used over the interval. */
  cpuSeconds: number;
  wallSeconds: number;
  /** cpuSeconds / wallSeconds: 1.0 = one core busy all along. */
  cores: number;
}

/** CPU use of a process over an interval. */
export function cpuMeter(pid: number): { stop(): CpuUse } {
  const cpu0 = cpuSeconds(pid);
  const t0 = performance.now();
  return {
    stop() {
      const wallSeconds = (performance.now() - t0) / 1000;
      const used = cpuSeconds(pid) - cpu0;
      return { cpuSeconds: used, wallSeconds, cores: wallSeconds > 0 ? used / wallSeconds : 0 };
    },
  };
}
