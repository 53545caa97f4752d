import type { Server } from 'node:http';

/** Which settings chose a listener's address, so a failure names what to change. */
export interface ListenSettings {
  port: number;
  host: string;
  /** The variables that set them, such as PORT and HOST. */
  portVariable: string;
  hostVariable: string;
}

/**
 * A listener that could not be opened, said in one line that names the variable to change and
 * the system's reason; the process entry prints it and exits instead of a stack trace.
 */
export class ListenError extends Error {
  readonly code: string | undefined;
  constructor(settings: ListenSettings, cause: unknown) {
    super(describeListenFailure(settings, cause), { cause });
    this.name = 'ListenError';
    this.code = codeOf(cause);
  }
}

function codeOf(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

function describeListenFailure(settings: ListenSettings, cause: unknown): string {
  const { port, host, portVariable, hostVariable } = settings;
  const where = `${host.includes(':') ? `[${host}]` : host}:${port}`;
  const code = codeOf(cause);
  switch (code) {
    case 'EADDRINUSE':
      return `${portVariable}=${port}: ${where} is already in use by another process (EADDRINUSE); stop it or choose another ${portVariable}`;
    case 'EACCES':
      return `${portVariable}=${port}: not allowed to listen on ${where} (EACCES); ports below 1024 need privileges`;
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
    case 'EAI_NONAME':
    case 'EAI_FAIL':
      return `${hostVariable}=${JSON.stringify(host)}: no such host name (${code}); give an address of this machine, such as 0.0.0.0 or 127.0.0.1`;
    case 'EADDRNOTAVAIL':
      return `${hostVariable}=${JSON.stringify(host)}: not an address of this machine (EADDRNOTAVAIL); give one of its addresses, such as 0.0.0.0 or 127.0.0.1`;
    case 'EAFNOSUPPORT':
      return `${hostVariable}=${JSON.stringify(host)}: this machine has no network of that address family (EAFNOSUPPORT)`;
    case 'EINVAL':
      return `${hostVariable}=${JSON.stringify(host)}: not an address this machine can listen on (EINVAL), such as a link-local address without its interface`;
    default: {
      const message = cause instanceof Error ? cause.message : String(cause);
      return `${hostVariable}=${JSON.stringify(host)} ${portVariable}=${port}: cannot listen on ${where} (${message.split('\n')[0]})`;
    }
  }
}

/** Listens, or rejects with a ListenError that names the variables. */
export function listen(server: Server, settings: ListenSettings): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const failed = (error: unknown) => reject(new ListenError(settings, error));
    server.once('error', failed);
    try {
      server.listen(settings.port, settings.host, () => {
        server.off('error', failed);
        resolve();
      });
    } catch (error) {
      // A host Node cannot even look up (an empty or malformed name) throws here.
      server.off('error', failed);
      failed(error);
    }
  });
}

/** The same words for a listener opened elsewhere (the embedded emulator). */
export function listenFailure(settings: ListenSettings, cause: unknown): ListenError {
  return cause instanceof ListenError ? cause : new ListenError(settings, cause);
}

/**
 * The address a process on this machine reaches a listener on: for a wildcard address, the
 * loopback address of its family (a listener on `::` may take no IPv4 at all); any other as it is.
 */
export function reachableHost(host: string): string {
  return host === '0.0.0.0' ? '127.0.0.1' : host === '::' ? '::1' : host;
}

/** The URL of a listener's path, as a process on this machine reaches it (an IPv6 address in brackets). */
export function localUrl(host: string, port: number, path: string): string {
  const reached = reachableHost(host);
  return `http://${reached.includes(':') ? `[${reached}]` : reached}:${port}${path}`;
}
