import { BUILD_VERSION } from '../observability/build.js';

/**
 * Settings this service no longer reads. An upgrade must not stop a deployment that still sets
 * one: in the release that removed it (and its patch releases) it is named in a warning and
 * ignored; from the next release on it stops the start, since by then a value set is a value the
 * operator believes in and the service ignores. Each entry stays, so that it is never taken for
 * a misspelling of another setting.
 */
export interface RemovedSetting {
  name: string;
  /** The release that stopped reading it, `major.minor.patch`. */
  removedIn: string;
  /** Why, and what an operator does instead: a sentence. */
  instead: string;
}

export const REMOVED_SETTINGS: readonly RemovedSetting[] = [
  {
    name: 'READY_BACKEND_WINDOW_MS',
    removedIn: '1.0.0',
    instead:
      "/readyz no longer turns 503 when the backend is down (that took every instance out of the load balancer); the backend's state is in /readyz's checks and bff_dependency_up",
  },
];

export const REMOVED_NAMES: ReadonlySet<string> = new Set(REMOVED_SETTINGS.map((setting) => setting.name));

/** A release line, `major.minor`: patch releases of a line refuse nothing their line accepted. */
function releaseLine(version: string): [number, number] | undefined {
  const match = /^(\d+)\.(\d+)\.\d+/.exec(version);
  return match ? [Number(match[1]), Number(match[2])] : undefined;
}

/** The release after `version`'s line, which refuses what that line removed. */
export function nextRelease(version: string): string {
  const [major, minor] = releaseLine(version) ?? [0, 0];
  return `${major}.${minor + 1}.0`;
}

/** Whether `version` is a later release line than `removedIn` (an unreadable version is not). */
function pastRemoval(version: string, removedIn: string): boolean {
  const running = releaseLine(version);
  const removed = releaseLine(removedIn);
  if (!running || !removed) return false;
  return running[0] > removed[0] || (running[0] === removed[0] && running[1] > removed[1]);
}

export interface RemovedSettingsFound {
  /** Set, and ignored with a warning: this release removed them. */
  ignored: { name: string; message: string }[];
  /** Set, and refused: an earlier release removed them. */
  refused: string[];
}

/** The removed settings `present` sets, judged for the running `version`. */
export function removedSettingsIn(present: Readonly<Record<string, string>>, version = BUILD_VERSION, removed = REMOVED_SETTINGS): RemovedSettingsFound {
  const found: RemovedSettingsFound = { ignored: [], refused: [] };
  for (const setting of removed) {
    if (present[setting.name] === undefined) continue;
    if (pastRemoval(version, setting.removedIn)) {
      found.refused.push(`${setting.name} was removed in ${setting.removedIn} and is no longer accepted: ${setting.instead}. Remove the variable`);
    } else {
      found.ignored.push({
        name: setting.name,
        message: `${setting.name} is ignored: it was removed in ${setting.removedIn} (${setting.instead}). Remove the variable: from ${nextRelease(setting.removedIn)} on it stops the start`,
      });
    }
  }
  return found;
}
