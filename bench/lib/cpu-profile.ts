import { readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Reads a V8 .cpuprofile (node --cpu-prof) and sums self time per function and per package. */

/** Where the bench keeps the profiles it makes: outside the repository, as they are large and belong to one machine. */
export const PROFILE_DIR = join(tmpdir(), 'campaign-bff-bench-profiles');

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

export interface ProfileSummary {
  file: string;
  /** Sampled time the thread was busy; the percentages below are shares of it. */
  busyMs: number;
  idleMs: number;
  topFunctions: { frame: string; selfMs: number; percent: number }[];
  topPackages: { place: string; selfMs: number; percent: number }[];
}

/** `node_modules/@apollo/server/...` → `@apollo/server`; our own files by directory; node internals as such. */
function placeOf(url: string): string {
  if (url === '') return '(native / V8)';
  const modules = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (modules?.[1]) return modules[1];
  if (url.startsWith('node:')) return 'node internals';
  const own = /\/(src|bench)\/(.+)\/[^/]+$/.exec(url) ?? /\/(src|bench)\/[^/]+$/.exec(url);
  if (own) return own[2] ? `${own[1]}/${own[2]}` : own[1]!;
  return url;
}

function shortUrl(url: string): string {
  const modules = url.lastIndexOf('node_modules/');
  if (modules !== -1) return url.slice(modules + 'node_modules/'.length);
  const src = url.search(/\/(src|bench)\//);
  return src !== -1 ? url.slice(src + 1) : url.replace(/^file:\/\//, '');
}

export function summarizeProfile(file: string, top = 25): ProfileSummary {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const selfUs = new Map<number, number>();
  profile.samples.forEach((id, i) => selfUs.set(id, (selfUs.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));
  let idle = 0;
  const functions = new Map<string, number>();
  const places = new Map<string, number>();
  for (const [id, us] of selfUs) {
    const frame = byId.get(id)!.callFrame;
    if (frame.functionName === '(idle)') {
      idle += us;
      continue;
    }
    const name = frame.functionName || '(anonymous)';
    const key = frame.url ? `${name}  ${shortUrl(frame.url)}:${frame.lineNumber + 1}` : name;
    functions.set(key, (functions.get(key) ?? 0) + us);
    const place = placeOf(frame.url);
    places.set(place, (places.get(place) ?? 0) + us);
  }
  const total = [...functions.values()].reduce((a, b) => a + b, 0) || 1;
  const rank = (m: Map<string, number>) =>
    [...m.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([k, us]) => ({ k, selfMs: Math.round(us / 100) / 10, percent: Math.round((us / total) * 1000) / 10 }));
  return {
    file,
    busyMs: Math.round(total / 1000),
    idleMs: Math.round(idle / 1000),
    topFunctions: rank(functions).map(({ k, ...rest }) => ({ frame: k, ...rest })),
    topPackages: rank(places).map(({ k, ...rest }) => ({ place: k, ...rest })),
  };
}

/**
 * The main-thread profile of a process (`CPU.<date>.<time>.<pid>.0.<seq>.cpuprofile`); the
 * module-loader thread of tsx writes its own, with another thread id.
 */
export function mainThreadProfile(dir: string, pid: number): string | undefined {
  const files = readdirSync(dir).filter((f) => f.endsWith('.cpuprofile') && f.includes(`.${pid}.0.`)).sort();
  const last = files.at(-1);
  return last ? join(dir, last) : undefined;
}

export function formatProfile(summary: ProfileSummary): string {
  const lines = [
    `CPU profile of the BFF main thread: ${summary.busyMs} ms busy, ${summary.idleMs} ms idle (${summary.file})`,
    'percentages are shares of the busy time',
    '',
    'self time by package:',
  ];
  for (const p of summary.topPackages.slice(0, 15)) lines.push(`  ${String(p.percent).padStart(5)}%  ${p.place}`);
  lines.push('', 'self time by function:');
  for (const f of summary.topFunctions) lines.push(`  ${String(f.percent).padStart(5)}%  ${f.frame}`);
  return lines.join('\n');
}
