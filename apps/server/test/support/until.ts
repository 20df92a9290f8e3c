/**
 * Polls `what` until `done` accepts its value, every `everyMs`, failing with the last value seen after
 * `timeoutMs`: for what jobs, associations and peers finish in their own time.
 */
export async function until<T>(
  what: () => Promise<T>,
  done: (value: T) => boolean,
  timeoutMs = 60_000,
  everyMs = 200,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await what();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`timed out; last: ${JSON.stringify(value)}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

/**
 * Polls `check` every `everyMs` until it answers something truthy (a mail a job delivers, a row a
 * job writes), failing with `what` it waited for after `timeoutMs`.
 */
export async function eventually<T>(
  check: () => T | Promise<T>,
  what: string,
  timeoutMs = 15_000,
  everyMs = 50,
): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}
