/**
 * Flags for node itself that the server process starts with: scripts/serve.sh passes them, and so
 * does every test and benchmark that starts the server (NODE_OPTIONS refuses them). docs/deploy.md
 * says the same for a deployment of several processes.
 *
 * `--heap-growing-percent=100`: after each full garbage collection, the heap may grow to twice what
 * survived before the next one. Left to its own rule, V8 sometimes let a heap of about 50 MB grow by
 * only a few megabytes between collections, and receiving 0.5 MB DICOM instances, whose bytes live
 * outside the heap, then ran a full collection every 30 to 40 instances on every core: as much CPU
 * as the receiving itself, and half the rate (docs/performance-log.md). The cost is a heap of up to
 * twice its live size, tens of megabytes.
 */
export const SERVER_NODE_FLAGS: readonly string[] = ['--heap-growing-percent=100'];

/** Those of SERVER_NODE_FLAGS that a process started with `execArgv` lacks. */
export function missingNodeFlags(execArgv: readonly string[] = process.execArgv): string[] {
  return SERVER_NODE_FLAGS.filter((flag) => !execArgv.includes(flag));
}
