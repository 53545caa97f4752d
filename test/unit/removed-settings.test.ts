import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { nearMisses } from '../../src/config-names.js';
import { nextRelease, REMOVED_SETTINGS, removedSettingsIn } from '../../src/config/removed.js';

/**
 * A setting a release removes is ignored with a warning in that release, so an upgrade never
 * stops a deployment that still sets it, and refused from the next release on.
 * test/server/removed-settings.test.ts starts the built entry both ways.
 */

const { version } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
const changelog = readFileSync(new URL('../../CHANGELOG.md', import.meta.url), 'utf8');
const window = { READY_BACKEND_WINDOW_MS: '30000' };

describe('a removed setting', () => {
  it('is ignored with a warning in the release that removed it and its patch releases', () => {
    for (const running of ['1.0.0', '1.0.7']) {
      const found = removedSettingsIn(window, running);
      expect(found.refused).toEqual([]);
      expect(found.ignored).toEqual([
        {
          name: 'READY_BACKEND_WINDOW_MS',
          message: expect.stringMatching(/^READY_BACKEND_WINDOW_MS is ignored: it was removed in 1\.0\.0 \(\/readyz no longer turns 503 .*\)\. Remove the variable: from 1\.1\.0 on it stops the start$/),
        },
      ]);
    }
  });

  it('is refused from the next release on, saying why and what to do', () => {
    for (const running of ['1.1.0', '2.0.0']) {
      const found = removedSettingsIn(window, running);
      expect(found.ignored).toEqual([]);
      expect(found.refused).toEqual([expect.stringMatching(/^READY_BACKEND_WINDOW_MS was removed in 1\.0\.0 and is no longer accepted: \/readyz no longer turns 503 .*bff_dependency_up\. Remove the variable$/)]);
    }
    expect(nextRelease('1.0.3')).toBe('1.1.0');
  });

  it('in this release: the configuration loads, and names what it ignored', () => {
    const config = loadConfig(window);
    const expected = removedSettingsIn(window, version);
    expect(config.ignoredSettings).toEqual(expected.ignored);
    expect(loadConfig({}).ignoredSettings).toEqual([]);
    // An empty variable is unset.
    expect(loadConfig({ READY_BACKEND_WINDOW_MS: '' }).ignoredSettings).toEqual([]);
  });

  it('is never taken for a misspelling of another setting', () => {
    expect(nearMisses(window)).toEqual([]);
  });

  it('each was removed by a release the changelog dates, whose Upgrading section names it', () => {
    for (const setting of REMOVED_SETTINGS) {
      const heading = changelog.split('\n').findIndex((line) => new RegExp(`^## ${setting.removedIn.replace(/\./g, '\\.')} \\(\\d{4}-\\d{2}-\\d{2}\\)$`).test(line));
      expect(heading, `CHANGELOG.md has a dated heading for ${setting.removedIn}`).toBeGreaterThanOrEqual(0);
      const release = changelog.split('\n').slice(heading + 1);
      const body = release.slice(0, release.findIndex((line) => line.startsWith('## ')) >>> 0).join('\n');
      const upgrading = body.slice(body.indexOf('### Upgrading'));
      expect(body, `${setting.removedIn} has an Upgrading section`).toContain('### Upgrading');
      expect(upgrading.slice(0, upgrading.indexOf('\n### ', 1) >>> 0), `${setting.removedIn}'s Upgrading section names ${setting.name}`).toContain(`\`${setting.name}\``);
    }
  });
});
