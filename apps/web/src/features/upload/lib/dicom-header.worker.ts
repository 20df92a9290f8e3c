/// <reference lib="webworker" />
import { scanMedia, type PickedFile } from './media-scan';
import type { ScanResult } from './studies';

/**
 * Main thread → worker: the picked files in batches (handles only; contents are read here, slice
 * by slice), then `scan` once all are sent.
 */
export type ScanRequest = { type: 'files'; files: PickedFile[] } | { type: 'scan' };

export type ScanMessage =
  | { type: 'progress'; done: number; total: number }
  | ({ type: 'done' } & ScanResult)
  | { type: 'failed'; message: string };

const received: PickedFile[] = [];

self.onmessage = async (event: MessageEvent<ScanRequest>) => {
  if (event.data.type === 'files') {
    for (const file of event.data.files) received.push(file);
    return;
  }
  try {
    const result = await scanMedia(received, (done, total) =>
      self.postMessage({ type: 'progress', done, total } satisfies ScanMessage),
    );
    self.postMessage({ type: 'done', ...result } satisfies ScanMessage);
  } catch (error) {
    // A rejected handler would not reach the page's worker.onerror: say it, or the scan never ends.
    self.postMessage({ type: 'failed', message: String(error) } satisfies ScanMessage);
  }
};
