import { createRequire } from 'node:module';
import os from 'node:os';
import { Worker } from 'node:worker_threads';
import { CODEC_WORKER_SOURCE } from './codec-worker-source.js';

/**
 * Runs the WebAssembly codecs on worker threads, each with its own instance, so that a malformed
 * frame can only break the worker that decodes it. In the main thread, one JPEG-LS codestream that
 * trapped (`RuntimeError: unreachable`, `memory access out of bounds`) left the shared instance
 * broken, and after a few dozen every compressed image answered 500 for every user until restart.
 *
 * A worker that fails a job (any codec error: an exception thrown through the WebAssembly can leave
 * its state as broken as a trap) or runs past `timeoutMs` is terminated and a fresh one started; the
 * job fails with a CodecError and only its own request sees it. Jobs wait in a queue for a free
 * worker, so a flood of renders uses at most `size` threads.
 */
export class CodecError extends Error {
  override readonly name = 'CodecError';
}

export interface CodecPoolOptions {
  size?: number;
  timeoutMs?: number;
}

interface Job {
  message: Record<string, unknown>;
  transfer: ArrayBuffer[];
  resolve: (answer: CodecAnswer) => void;
  reject: (error: Error) => void;
}

export interface CodecAnswer {
  data: Uint8Array;
  photometric?: string;
  planarConfiguration?: number;
}

interface Slot {
  worker: Worker;
  job?: Job & { id: number; timer: NodeJS.Timeout };
}

const CODECS_PATH = createRequire(import.meta.url).resolve('dcmjs-codecs');
/** A decode that takes longer is abandoned (its worker terminated): no legitimate frame needs it. */
export const DECODE_TIMEOUT_MS = 20_000;

export class CodecPool {
  readonly size: number;
  readonly timeoutMs: number;
  private readonly slots: Slot[] = [];
  private readonly queue: Job[] = [];
  private nextId = 1;
  /** Workers replaced after a failure or timeout (for tests and logs). */
  replaced = 0;

  constructor(options: CodecPoolOptions = {}) {
    this.size = options.size ?? Math.max(2, Math.min(4, os.availableParallelism() - 1));
    this.timeoutMs = options.timeoutMs ?? DECODE_TIMEOUT_MS;
  }

  /** Runs one job (`op` decode or encodeJpeg) on a free worker; `transfer` moves its buffers there. */
  run(message: Record<string, unknown>, transfer: ArrayBuffer[] = []): Promise<CodecAnswer> {
    return new Promise((resolve, reject) => {
      this.queue.push({ message, transfer, resolve, reject });
      this.dispatch();
    });
  }

  async close(): Promise<void> {
    const slots = this.slots.splice(0);
    for (const job of this.queue.splice(0)) job.reject(new CodecError('the codec pool closed'));
    for (const slot of slots) {
      if (slot.job) {
        clearTimeout(slot.job.timer);
        slot.job.reject(new CodecError('the codec pool closed'));
      }
    }
    await Promise.all(slots.map((slot) => slot.worker.terminate()));
  }

  private dispatch(): void {
    while (this.queue.length > 0) {
      let slot = this.slots.find((s) => !s.job);
      if (!slot && this.slots.length < this.size) slot = this.spawn();
      if (!slot) return;
      const job = this.queue.shift()!;
      const id = this.nextId++;
      const busy = slot;
      const timer = setTimeout(
        () => this.fail(busy, new CodecError(`decoding took longer than ${this.timeoutMs} ms`)),
        this.timeoutMs,
      );
      slot.job = { ...job, id, timer };
      slot.worker.ref();
      slot.worker.postMessage({ ...job.message, id }, job.transfer);
    }
  }

  private spawn(): Slot {
    const worker = new Worker(CODEC_WORKER_SOURCE, {
      eval: true,
      workerData: { codecsPath: CODECS_PATH },
      // The JavaScript side only shuttles buffers; the WebAssembly memory is not counted here.
      resourceLimits: { maxOldGenerationSizeMb: 256, maxYoungGenerationSizeMb: 32 },
    });
    worker.unref();
    const slot: Slot = { worker };
    worker.on('message', (answer: { id: number; ok: boolean; message?: string } & CodecAnswer) => {
      const job = slot.job;
      if (!job || job.id !== answer.id) return;
      if (!answer.ok) return this.fail(slot, new CodecError(answer.message ?? 'the codec failed'));
      clearTimeout(job.timer);
      slot.job = undefined;
      worker.unref();
      job.resolve(answer);
      this.dispatch();
    });
    worker.on('error', (error) =>
      this.fail(slot, new CodecError(`the codec worker failed: ${error.message}`)),
    );
    worker.on('exit', () => this.fail(slot, new CodecError('the codec worker stopped')));
    this.slots.push(slot);
    return slot;
  }

  /** Fails the slot's job, terminates its worker and starts the next queued job on a fresh one. */
  private fail(slot: Slot, error: CodecError): void {
    const index = this.slots.indexOf(slot);
    if (index < 0) return; // already replaced (an exit after terminate)
    this.slots.splice(index, 1);
    this.replaced++;
    const job = slot.job;
    slot.job = undefined;
    if (job) {
      clearTimeout(job.timer);
      job.reject(error);
    }
    void slot.worker.terminate();
    // The replacement starts now, so the next request does not wait for a thread and its codecs.
    if (this.queue.length === 0) this.spawn();
    this.dispatch();
  }
}
