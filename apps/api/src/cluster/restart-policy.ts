/**
 * When to start a cluster member again after it exited: at once-ish (initialMs), then doubling up
 * to maxMs while it keeps dying, and back to initialMs once it had run for resetAfterMs (a crash
 * after an hour is not a crash loop).
 */
export class RestartPolicy {
  private failures = 0;
  private startedAt = 0;

  constructor(
    private readonly initialMs = 500,
    private readonly maxMs = 10_000,
    private readonly resetAfterMs = 30_000,
  ) {}

  /** The member was started at `now`. */
  started(now: number): void {
    this.startedAt = now;
  }

  /** The member exited at `now`: how long to wait before starting it again. */
  exited(now: number): number {
    if (now - this.startedAt >= this.resetAfterMs) this.failures = 0;
    const delay = Math.min(this.maxMs, this.initialMs * 2 ** this.failures);
    this.failures += 1;
    return delay;
  }
}
