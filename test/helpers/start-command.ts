import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));

/**
 * The command that runs the product, as package.json's `start` script gives it
 * (`exec node <options> dist/src/main.js`): the node options and the entry. The image's CMD is held
 * to the same words (test/deploy/dockerfile.test.ts), and the tests and the bench that start the
 * built entry start it with these options, so what they measure is what runs in production.
 */
export function startCommand(): { nodeOptions: string[]; entry: string } {
  const manifest = JSON.parse(readFileSync(`${root}package.json`, 'utf8')) as { scripts: Record<string, string> };
  const words = manifest.scripts.start!.trim().split(/\s+/);
  if (words[0] !== 'exec' || words[1] !== 'node' || words.length < 3) {
    throw new Error(`package.json's start script should be \`exec node [options] <entry>\`, got ${JSON.stringify(manifest.scripts.start)}`);
  }
  return { nodeOptions: words.slice(2, -1), entry: words.at(-1)! };
}
