import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The programs some suites run for real, each with the Debian package that brings it and how it
 * is found. A suite that cannot run without one asks `needs()` (test/helpers/needs.ts) in its
 * skip condition, so `npm test` names it at the end with the package to install.
 */
export const PROGRAMS = {
  'redis-server': { debian: 'redis-server', candidates: ['redis-server'], probe: ['--version'] },
  // redis-server depends on redis-tools, which brings it.
  'redis-cli': { debian: 'redis-tools', candidates: ['redis-cli'], probe: ['--version'] },
  // Debian puts it in /usr/sbin, which not every PATH has.
  haproxy: { debian: 'haproxy', candidates: ['haproxy', '/usr/sbin/haproxy'], probe: ['-v'] },
  // The server, from the same package as promtool: it renders alert templates as production does.
  prometheus: { debian: 'prometheus', candidates: ['/usr/bin/prometheus', 'prometheus'], probe: ['--version'] },
  promtool: { debian: 'prometheus', candidates: ['/usr/bin/promtool', ...(process.env.PATH ?? '').split(':').filter(Boolean).map((dir) => join(dir, 'promtool'))], probe: ['--version'] },
  // Debian's client first (its BuildKit builds the image's secrets), and a daemon it can reach:
  // `docker info` fails without either.
  docker: { debian: 'docker.io', candidates: ['/usr/bin/docker', 'docker'], probe: ['info', '--format', '{{.ServerVersion}}'] },
} as const;

export type Program = keyof typeof PROGRAMS;

const found = new Map<Program, string | undefined>();

/** The command that runs `program` here, or undefined when it is not installed (or, for docker, no daemon answers). */
export function where(program: Program): string | undefined {
  if (!found.has(program)) {
    const { candidates, probe } = PROGRAMS[program];
    found.set(
      program,
      candidates.find((candidate) => (!candidate.includes('/') || existsSync(candidate)) && spawnSync(candidate, [...probe], { stdio: 'ignore', timeout: 20_000 }).status === 0),
    );
  }
  return found.get(program);
}
