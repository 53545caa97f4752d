import { Gauge, type Registry } from 'prom-client';
import type { Logger } from '../observability/logger.js';

/**
 * What this instance knows of the services every instance of a fleet shares: Redis and the
 * campaign API. Their state is told in /readyz's body, in `bff_dependency_up` and by one log line
 * at each change, never by readiness itself: every instance sees the same outage, and a load
 * balancer told so by all of them takes the whole fleet out, and with it what each instance can
 * still answer without the dependency (the backend without Redis; cached categories and the last
 * good feed without the backend).
 */

export interface DependencyState {
  ok: boolean;
  detail: string;
}

export interface Dependency {
  name: 'redis' | 'backend';
  /** The state now, from what the instance has seen (the backend) or asks (Redis, a ping). */
  check(): DependencyState | Promise<DependencyState>;
}

export class Dependencies {
  readonly #states = new Map<string, { ok: boolean; since: number }>();
  #timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly dependencies: Dependency[],
    private readonly logger: Logger,
    registry: Registry,
  ) {
    const self = this;
    new Gauge({
      name: 'bff_dependency_up',
      help: 'Whether a dependency every instance shares answers, as this instance sees it (1) or not (0); readiness does not follow it.',
      labelNames: ['dependency'] as const,
      registers: [registry],
      async collect() {
        for (const [name, state] of await self.check()) this.set({ dependency: name }, state.ok ? 1 : 0);
      },
    });
  }

  /** Looks every `intervalMs` too, so a change is logged also when nothing probes or scrapes the instance. */
  watch(intervalMs: number): void {
    this.#timer = setInterval(() => void this.check(), intervalMs);
    this.#timer.unref();
  }

  close(): void {
    clearInterval(this.#timer);
  }

  /** Every dependency's state now; a change since the last look is logged. */
  async check(): Promise<Map<string, DependencyState>> {
    const states = new Map<string, DependencyState>();
    await Promise.all(
      this.dependencies.map(async (dependency) => {
        const state = await dependency.check();
        states.set(dependency.name, state);
        this.#note(dependency.name, state);
      }),
    );
    return states;
  }

  /** Looks at one dependency whose state may have changed (the backend after each call). */
  observe(name: Dependency['name']): void {
    const dependency = this.dependencies.find((d) => d.name === name);
    if (!dependency) return;
    const state = dependency.check();
    if (state instanceof Promise) void state.then((s) => this.#note(name, s));
    else this.#note(name, state);
  }

  #note(name: string, state: DependencyState): void {
    const previous = this.#states.get(name);
    if (previous?.ok === state.ok) return;
    const now = Date.now();
    this.#states.set(name, { ok: state.ok, since: now });
    // The first look sets the state; only a down dependency is worth a line then.
    if (!previous && state.ok) return;
    if (state.ok) this.logger.info({ dependency: name, downMs: now - previous!.since, detail: state.detail }, `dependency up again: ${name}`);
    else this.logger.warn({ dependency: name, detail: state.detail }, `dependency down: ${name}; still serving what does not need it`);
  }
}
