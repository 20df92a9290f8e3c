/**
 * The counted attempts this process is still checking (a password being hashed), per lock key. A
 * limit reached only because of them is not yet a refusal: the next attempt waits for one of them
 * to end (a right one gives its count back) and looks again. So right passwords sent together from
 * one address all get in, while wrong ones never pass the limit. Attempts in flight in another
 * process are not seen here: against those the limit refuses at once, the safe side.
 */
export class AttemptsInFlight {
  private readonly byKey = new Map<string, Set<Promise<unknown>>>();

  /** Runs `work` as an attempt in flight under `key` until it settles. */
  run<T>(key: string, work: () => Promise<T>): Promise<T> {
    const running = work();
    const settled = running.then(
      () => undefined,
      () => undefined,
    );
    let set = this.byKey.get(key);
    if (!set) this.byKey.set(key, (set = new Set()));
    set.add(settled);
    void settled.then(() => {
      set.delete(settled);
      if (!set.size && this.byKey.get(key) === set) this.byKey.delete(key);
    });
    return running;
  }

  /** Settles when one attempt in flight under `key` ends; undefined when none is. */
  next(key: string): Promise<unknown> | undefined {
    const set = this.byKey.get(key);
    return set?.size ? Promise.race(set) : undefined;
  }
}

/** How long an attempt waits, in all, for attempts in flight before the limit refuses it. */
export const MAX_IN_FLIGHT_WAIT_MS = 10_000;
