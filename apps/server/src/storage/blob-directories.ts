import fs from 'node:fs';
import path from 'node:path';
import { Worker } from 'node:worker_threads';

/**
 * Makes every `ab/cd` directory of a young blob store ahead of the files that need them, on a
 * thread of its own at the lowest CPU priority (decision 0049).
 *
 * Blobs live under `<2 hex>/<2 hex>/` of their SHA-256, 65,536 directories in all, and until most
 * of them exist nearly every received instance creates one before its file. On ext4 that mkdir
 * (an inode placed by the directory allocator) cost 1.2–1.6 ms per instance on the development
 * machine, against 0.04–0.12 ms for the file's own create in an existing directory, and a C-STORE
 * answer waits for its file's create. Made ahead they cost the same once, off the answer path, and
 * only the CPU other work leaves over (nice 19); once all are made, a marker file in the store
 * (`.directories-made`) spares the next start the pass. The writers still make a missing directory
 * themselves (a cheap EEXIST once it exists), so nothing depends on this having finished. Only where a new file's sync makes its directories durable
 * (new-name-durability.ts): elsewhere each new directory needs fsyncs of its own, which the
 * writer does for the directories it makes.
 *
 * Plain JavaScript evaluated from a string, as durable-writer.ts, so it runs under tsx, vitest and
 * the compiled server alike.
 */
const WORKER_SOURCE = `
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { parentPort, workerData } = require('node:worker_threads');
try {
  // On Linux a thread's nice value is its own: /proc/thread-self names this thread's id.
  const tid = Number(fs.readlinkSync('/proc/thread-self').split('/').pop());
  if (tid > 0) os.setPriority(tid, 19);
} catch {}
const hex = (n) => n.toString(16).padStart(2, '0');
let made = 0;
for (let a = 0; a < 256; a++) {
  const top = path.join(workerData.root, hex(a));
  fs.mkdirSync(top, { recursive: true });
  for (let b = 0; b < 256; b++) {
    try {
      fs.mkdirSync(path.join(top, hex(b)));
      made += 1;
    } catch (error) {
      if (error.code !== 'EEXIST') throw error;
    }
  }
}
fs.closeSync(fs.openSync(path.join(workerData.root, workerData.marker), 'w'));
parentPort.postMessage({ made });
`;

/** Written in the blob root once every directory exists (not a blob: blob names are hex). */
export const DIRECTORIES_MARKER = '.directories-made';

export class BlobDirectoriesAhead {
  private worker: Worker | undefined;
  /** Settles once the directories are made (or the making failed or was stopped). */
  readonly done: Promise<{ made: number }>;

  constructor(root: string) {
    if (fs.existsSync(path.join(root, DIRECTORIES_MARKER))) {
      this.done = Promise.resolve({ made: 0 });
      return;
    }
    const worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: { root, marker: DIRECTORIES_MARKER },
    });
    // Never what keeps the process alive.
    worker.unref();
    this.worker = worker;
    this.done = new Promise((resolve) => {
      worker.once('message', resolve);
      // A failure (disk full, permissions) leaves the writers making directories as before.
      worker.once('error', () => resolve({ made: 0 }));
      worker.once('exit', () => {
        this.worker = undefined;
        resolve({ made: 0 });
      });
    });
  }

  async stop(): Promise<void> {
    await this.worker?.terminate();
  }
}
