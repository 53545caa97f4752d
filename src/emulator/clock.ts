/**
 * The emulator's notion of "now": real time plus an offset that only the admin API moves.
 * Every scheduled transition reads this clock, so tests move time instead of sleeping.
 */
export class EmulatorClock {
  private offsetMs = 0;

  now(): number {
    return Date.now() + this.offsetMs;
  }

  get offset(): number {
    return this.offsetMs;
  }

  /** Moves the clock forward; it never runs backwards, so applied transitions stay true. */
  advance(ms: number): void {
    if (!(ms >= 0)) throw new RangeError(`advanceMs must be a non-negative number of milliseconds, got ${ms}`);
    this.offsetMs += ms;
  }

  /** Jumps to an absolute instant that must not be earlier than the current emulator time. */
  setNow(at: number): void {
    const current = this.now();
    if (at < current) {
      throw new RangeError(`the clock only moves forward: ${new Date(at).toISOString()} is before the emulator's now ${new Date(current).toISOString()}`);
    }
    this.offsetMs += at - current;
  }

  reset(): void {
    this.offsetMs = 0;
  }
}
