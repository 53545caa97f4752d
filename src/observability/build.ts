import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The version in the nearest package.json above this module: the repository's from src/ under
 * tsx and from dist/src/ once built, and the image's, which keeps package.json beside dist/.
 * The one version of a release: `bff_build_info` shows it, and the configuration judges removed
 * settings by it.
 */
function packageVersion(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const file = join(dir, 'package.json');
    if (existsSync(file)) {
      try {
        const { version } = JSON.parse(readFileSync(file, 'utf8')) as { version?: unknown };
        return typeof version === 'string' && version.length > 0 ? version.slice(0, 64) : 'unknown';
      } catch {
        return 'unknown';
      }
    }
    const up = dirname(dir);
    if (up === dir) return 'unknown';
    dir = up;
  }
}

export const BUILD_VERSION = packageVersion();
