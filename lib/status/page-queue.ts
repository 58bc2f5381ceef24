/**
 * Runs the pages that cost a LIST or a read of the lake one at a time, and after each rests as
 * long as it took before the next starts: a flood of them (a page left reloading, a script, a
 * hostile web page) gets at most half of the endpoint, and drops the rest. Past `waiting`
 * queued requests a page is refused at once rather than held.
 */
export interface PageQueue {
  /** The task's result once its turn came, or undefined when the queue was full. */
  run<T>(task: () => Promise<T>): Promise<T> | undefined;
}

export function pageQueue(waiting: number): PageQueue {
  const queue: (() => void)[] = [];
  let busy = false;
  const next = (): void => {
    const start = queue.shift();
    if (start === undefined) busy = false;
    else start();
  };
  const rest = (started: number): void => {
    // Unref'd: a gate stopping does not wait for a rest to end.
    setTimeout(next, performance.now() - started).unref();
  };
  return {
    run(task) {
      if (busy && queue.length >= waiting) return undefined;
      return new Promise((resolve, reject) => {
        const start = (): void => {
          const started = performance.now();
          void task().then(resolve, reject).finally(() => rest(started));
        };
        if (busy) queue.push(start);
        else {
          busy = true;
          start();
        }
      });
    },
  };
}

/**
 * The page made for one key (a prefix, an object key), reused by every request for that key
 * within `reuseMs`, including those that arrive while it is being made. Holds at most `keep`
 * keys, forgetting the oldest. When `make` declines (a full queue), so does this, keeping nothing.
 */
export function sharedByKey<T>(reuseMs: number, keep: number, clock: () => number, make: (key: string) => Promise<T> | undefined): (key: string) => Promise<T> | undefined {
  const made = new Map<string, { at: number; page: Promise<T> }>();
  return (key) => {
    const last = made.get(key);
    if (last && clock() - last.at < reuseMs) return last.page;
    const page = make(key);
    if (page === undefined) return undefined;
    made.delete(key);
    if (made.size >= keep) made.delete(made.keys().next().value!);
    const entry = { at: clock(), page };
    made.set(key, entry);
    page.catch(() => made.get(key) === entry && made.delete(key));
    return page;
  };
}
