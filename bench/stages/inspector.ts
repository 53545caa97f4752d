/**
 * A CPU profile of another node process over a window the bench chooses, through the inspector
 * protocol (the process runs with `--inspect=127.0.0.1:<port>`): the profiler samples only while
 * the window is open, so start-up, warm-up and shutdown stay out of it.
 */

export interface CpuProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber?: number };
  children?: number[];
}

/** V8's profile: the call tree, and which node each sample hit and when. */
export interface CpuProfile {
  nodes: CpuProfileNode[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
  endTime: number;
}

export interface ProfilerSession {
  /** Starts sampling every `intervalUs` microseconds. */
  start(intervalUs: number): Promise<void>;
  stop(): Promise<CpuProfile>;
  close(): void;
}

/** Connects to the inspector listening on `port` (the target's first page). */
export async function connectProfiler(port: number): Promise<ProfilerSession> {
  const targets = (await (await fetch(`http://127.0.0.1:${port}/json/list`, { signal: AbortSignal.timeout(5000) })).json()) as { webSocketDebuggerUrl?: string }[];
  const url = targets.find((t) => t.webSocketDebuggerUrl)?.webSocketDebuggerUrl;
  if (!url) throw new Error(`the inspector on port ${port} lists no target to connect to`);
  const socket = new WebSocket(url);
  await new Promise<void>((resolve, reject) => {
    socket.addEventListener('open', () => resolve(), { once: true });
    socket.addEventListener('error', () => reject(new Error(`could not connect to the inspector at ${url}`)), { once: true });
  });
  let next = 0;
  const pending = new Map<number, { resolve(result: unknown): void; reject(error: Error): void }>();
  socket.addEventListener('message', (event) => {
    const message = JSON.parse(String(event.data)) as { id?: number; result?: unknown; error?: { message: string } };
    const waiter = message.id === undefined ? undefined : pending.get(message.id);
    if (!waiter) return;
    pending.delete(message.id!);
    if (message.error) waiter.reject(new Error(`inspector: ${message.error.message}`));
    else waiter.resolve(message.result);
  });
  socket.addEventListener('close', () => {
    for (const waiter of pending.values()) waiter.reject(new Error('the inspector closed the connection'));
    pending.clear();
  });
  const send = (method: string, params: Record<string, unknown> = {}) =>
    new Promise<unknown>((resolve, reject) => {
      const id = ++next;
      pending.set(id, { resolve, reject });
      socket.send(JSON.stringify({ id, method, params }));
    });
  await send('Profiler.enable');
  return {
    async start(intervalUs) {
      await send('Profiler.setSamplingInterval', { interval: intervalUs });
      await send('Profiler.start');
    },
    async stop() {
      const { profile } = (await send('Profiler.stop')) as { profile: CpuProfile };
      return profile;
    },
    close: () => socket.close(),
  };
}
