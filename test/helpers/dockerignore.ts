/**
 * Whether Docker leaves `path` (relative to the context root, `/`-separated) out of the build
 * context under the given .dockerignore text, by Docker's rules: patterns are Go `filepath.Match`
 * globs plus `**` for any number of directories, a pattern also matches everything under a
 * directory it matches, `!` lets a path back in, and the last pattern that matches wins.
 */
export function dockerIgnored(dockerignore: string, path: string): boolean {
  const patterns = dockerignore
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'))
    .map((line) => {
      const exception = line.startsWith('!');
      const glob = (exception ? line.slice(1) : line).trim().replace(/^\/+/, '').replace(/\/+$/, '');
      return { exception, regex: globToRegex(glob) };
    });
  const parts = path.split('/');
  // The path itself and each directory above it: a pattern that matches a directory matches its contents.
  const candidates = parts.map((_, i) => parts.slice(0, i + 1).join('/'));
  let ignored = false;
  for (const { exception, regex } of patterns) {
    if (candidates.some((candidate) => regex.test(candidate))) ignored = !exception;
  }
  return ignored;
}

function globToRegex(glob: string): RegExp {
  let source = '';
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!;
    if (c === '*' && glob[i + 1] === '*') {
      // `**/` any directories (none included), `/**` at the end everything below, else anything.
      if (glob[i + 2] === '/') {
        source += '(?:.*/)?';
        i += 2;
      } else {
        source += '.*';
        i += 1;
      }
    } else if (c === '*') source += '[^/]*';
    else if (c === '?') source += '[^/]';
    else source += c.replace(/[.+^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${source}$`);
}
