export interface FetchLimits {
  /** Tasks running at once; 0 runs none. */
  concurrency: number;
  /** Tasks running at once for one host. */
  perHost: number;
  /** Tasks waiting for a slot; past this, new ones are refused. */
  queue: number;
}

type Task = () => Promise<unknown>;

/**
 * Runs background tasks, each for a host, with at most `concurrency` at once overall and `perHost` at once per
 * host. A task past either cap waits, in order of arrival for its host and in turn with the other hosts, so that
 * one host with many waiting never starves the rest; past `queue` waiting tasks, a new one is refused.
 */
export class FetchSlots {
  private running = 0;
  private readonly runningFor = new Map<string, number>();
  /** Waiting tasks by host; a host that was just served moves to the end. */
  private readonly waiting = new Map<string, Task[]>();
  private waitingCount = 0;

  constructor(private readonly limits: FetchLimits) {}

  /** Runs `task` now or once a slot is free; false when it never will (no slot at all, or the queue is full). */
  submit(host: string, task: Task): boolean {
    if (this.limits.concurrency === 0) return false;
    // No waiting task can start (each change starts those that can): one with a free slot goes first.
    if (this.hasSlot(host)) {
      this.start(host, task);
      return true;
    }
    if (this.waitingCount >= this.limits.queue) return false;
    const tasks = this.waiting.get(host);
    if (tasks === undefined) this.waiting.set(host, [task]);
    else tasks.push(task);
    this.waitingCount += 1;
    return true;
  }

  /** Drops every waiting task (they never run) and says how many there were. */
  clear(): number {
    const dropped = this.waitingCount;
    this.waiting.clear();
    this.waitingCount = 0;
    return dropped;
  }

  private hasSlot(host: string): boolean {
    return this.running < this.limits.concurrency && (this.runningFor.get(host) ?? 0) < this.limits.perHost;
  }

  private start(host: string, task: Task): void {
    this.running += 1;
    this.runningFor.set(host, (this.runningFor.get(host) ?? 0) + 1);
    void task()
      .catch(() => undefined)
      .finally(() => {
        this.running -= 1;
        const left = this.runningFor.get(host)! - 1;
        if (left === 0) this.runningFor.delete(host);
        else this.runningFor.set(host, left);
        this.startWaiting();
      });
  }

  /** Starts waiting tasks while slots are free, one host after another. */
  private startWaiting(): void {
    for (const [host, tasks] of this.waiting) {
      if (this.running >= this.limits.concurrency) return;
      if (!this.hasSlot(host)) continue;
      const task = tasks.shift()!;
      this.waitingCount -= 1;
      // Served: to the back of the line (iteration reaches it again there, after the other hosts).
      this.waiting.delete(host);
      if (tasks.length > 0) this.waiting.set(host, tasks);
      this.start(host, task);
    }
  }
}
