import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

/**
 * WAL pages the main connection lets accumulate before it checkpoints by itself: the fallback for
 * a checkpointer that has stopped or cannot keep up (64 MB at 4 KB pages; SQLite's default is 1,000).
 */
export const FALLBACK_AUTOCHECKPOINT_PAGES = 16_000;
const INTERVAL_MS = 200;

/**
 * Copies SQLite's write-ahead log back into the database file from a thread of its own, on its own
 * connection. Left to itself, SQLite checkpoints inside the commit that crosses 1,000 WAL pages, on
 * the committing connection: with better-sqlite3 that is the main thread, blocked for two disk
 * syncs plus the page writes (2 ms on a quiet disk, tens of ms on a busy one) every hundred or so
 * received instances, stalling every request and association meanwhile. A PASSIVE checkpoint
 * never takes the write lock and never waits, so it runs beside readers and the writer.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const SQLite = require(workerData.driver);
const db = new SQLite(workerData.file);
db.pragma('synchronous = FULL');
// One report, not one per interval; the main connection's own checkpoints still bound the WAL.
let reported = false;
const timer = setInterval(() => {
  try {
    db.pragma('wal_checkpoint(PASSIVE)');
  } catch (error) {
    if (!reported) parentPort.postMessage(String((error && error.message) || error));
    reported = true;
  }
}, workerData.intervalMs);
parentPort.on('message', () => {
  clearInterval(timer);
  db.close();
  parentPort.close();
});
`;

export class WalCheckpointer {
  private readonly worker: Worker;
  private readonly exited: Promise<void>;

  constructor(file: string, log: (line: string) => void = () => undefined, intervalMs = INTERVAL_MS) {
    const driver = createRequire(import.meta.url).resolve('better-sqlite3');
    this.worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { file, driver, intervalMs } });
    this.worker.unref();
    this.worker.on('message', (error: string) => log(`WAL checkpoint failed: ${error}`));
    this.exited = new Promise((resolve) => {
      this.worker.once('exit', () => resolve());
      this.worker.once('error', (error) => log(`WAL checkpointer stopped: ${error.message}`));
    });
  }

  async stop(): Promise<void> {
    // Unreferenced, the worker would not keep the process alive while the stop waits for it: with
    // every server handle closed, the process would exit mid-stop, before the clean stop is recorded.
    this.worker.ref();
    this.worker.postMessage('stop');
    await this.exited;
  }
}
