import sourceMapSupport from '@cspotcode/source-map-support';

/**
 * Stack traces name the TypeScript sources (`src/…/x.ts:line`) rather than the compiled
 * `dist/…/x.js`, reading a source map only when a stack that passes through its file is first
 * formatted.
 *
 * Node's `--enable-source-maps` reads and parses the map of every module as it loads, the
 * dependencies' included, and keeps it with the length of each of its lines: live heap held for
 * good, which V8's heap growth then doubles under load (docs/adr/source-maps-on-demand.md). Almost
 * none of it is ever used: a map is needed only for an error's stack.
 *
 * Imported first by the process entries, so that what fails while the other modules load is
 * mapped too. This replaces `--enable-source-maps`: with the flag as well, this module would map the
 * stacks, and Node would still parse every map as it loads.
 */
sourceMapSupport.install({ environment: 'node', handleUncaughtExceptions: false, hookRequire: false });
