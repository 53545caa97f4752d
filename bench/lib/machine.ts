import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import os from 'node:os';
import { hasTaskset } from './children.js';

export interface MachineInfo {
  cores: number;
  cpuModel: string;
  node: string;
  kernel: string;
  taskset: boolean;
  /** 1, 5 and 15 minute load averages at start: other work on the machine skews the figures. */
  loadAverage: number[];
}

function cpuModel(): string {
  try {
    const match = /^model name\s*:\s*(.+)$/m.exec(readFileSync('/proc/cpuinfo', 'utf8'));
    if (match?.[1]) return match[1].trim();
  } catch {
    // not Linux
  }
  return os.cpus()[0]?.model ?? 'unknown';
}

export function describeMachine(): MachineInfo {
  return {
    cores: os.availableParallelism(),
    cpuModel: cpuModel(),
    node: process.version,
    kernel: `${os.type()} ${os.release()}`,
    taskset: hasTaskset(),
    loadAverage: os.loadavg().map((n) => Math.round(n * 100) / 100),
  };
}

export interface TreeInfo {
  commit: string;
  /** Files that differ from the commit: the run measured them as they were on disk. */
  changed: string[];
}

/** The git commit the run measured, and what on disk differed from it. */
export function describeTree(repoRoot: string): TreeInfo | null {
  try {
    const git = (...args: string[]) => execFileSync('git', ['-C', repoRoot, ...args], { encoding: 'utf8' });
    const commit = git('rev-parse', '--short', 'HEAD').trim();
    const changed = git('status', '--porcelain', '--', 'src', 'schema', 'package.json', 'bench')
      .split('\n')
      .filter(Boolean)
      .map((line) => line.slice(3));
    return { commit, changed };
  } catch {
    return null;
  }
}
