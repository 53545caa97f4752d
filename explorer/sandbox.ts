/**
 * Apollo Sandbox's page at /graphql in development: Sandbox, embedded from Apollo's CDN, opens
 * with the first query and the demo token. When its script cannot load (offline, or a proxy that
 * refuses or holds the request), the page turns to the bundled GraphiQL by itself, so a developer
 * always gets a working explorer. Sandbox sends its operations through this page (its `fetch`,
 * its WebSocket), to this origin.
 */

interface SandboxConfig {
  /** The operation the first tab opens with. */
  query: string;
  /** The headers every tab opens with, as JSON (the demo token on the embedded emulator). */
  headers: string;
  sandbox: {
    /** Apollo's embeddable Sandbox script. */
    script: string;
    /** The bundled GraphiQL's module, beside this file. */
    fallback: string;
    /** How long Sandbox's script may take before the page turns to GraphiQL. */
    timeoutMs: number;
  };
}

interface EmbeddedSandboxOptions {
  target: string;
  initialEndpoint: string;
  initialState: { document: string; sharedHeaders: Record<string, string>; includeCookies: boolean };
  endpointIsEditable: boolean;
  hideCookieToggle: boolean;
}

type EmbeddedSandbox = new (options: EmbeddedSandboxOptions) => unknown;

const config = JSON.parse(document.getElementById('explorer-config')!.textContent!) as SandboxConfig;
const endpoint = new URL(window.location.pathname, window.location.origin).href;
let settled = false;

function useGraphiQL(why: string): void {
  if (settled) return;
  settled = true;
  document.getElementById('sandbox')?.remove();
  document.title = document.title.replace('Apollo Sandbox', 'GraphiQL');
  console.info(`Apollo Sandbox ${why}: opening the bundled GraphiQL instead.`);
  void import(new URL(config.sandbox.fallback, import.meta.url).href);
}

function useSandbox(): void {
  const Sandbox = (window as { EmbeddedSandbox?: EmbeddedSandbox }).EmbeddedSandbox;
  // A proxy's page answered in place of the script defines nothing.
  if (typeof Sandbox !== 'function') return useGraphiQL('did not load');
  settled = true;
  document.getElementById('explorer')?.remove();
  new Sandbox({
    target: '#sandbox',
    initialEndpoint: endpoint,
    initialState: { document: config.query, sharedHeaders: JSON.parse(config.headers) as Record<string, string>, includeCookies: false },
    endpointIsEditable: false,
    hideCookieToggle: false,
  });
}

const script = document.createElement('script');
script.src = config.sandbox.script;
script.addEventListener('error', () => useGraphiQL('cannot be loaded'));
script.addEventListener('load', () => {
  if (!settled) useSandbox();
});
setTimeout(() => useGraphiQL('took too long to load'), config.sandbox.timeoutMs);
document.head.append(script);
