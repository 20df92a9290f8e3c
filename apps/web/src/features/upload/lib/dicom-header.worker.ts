/// <reference lib="webworker" />
import { scanMedia, type PickedFile } from './media-scan';
import type { ScanResult } from './studies';

/** Main thread → worker: the picked files (handles only; contents are read here, slice by slice). */
export interface ScanRequest {
  files: PickedFile[];
}

export type ScanMessage =
  | { type: 'progress'; done: number; total: number }
  | ({ type: 'done' } & ScanResult)
  | { type: 'failed'; message: string };

self.onmessage = async (event: MessageEvent<ScanRequest>) => {
  try {
    const result = await scanMedia(event.data.files, (done, total) =>
      self.postMessage({ type: 'progress', done, total } satisfies ScanMessage),
    );
    self.postMessage({ type: 'done', ...result } satisfies ScanMessage);
  } catch (error) {
    // A rejected handler would not reach the page's worker.onerror: say it, or the scan never ends.
    self.postMessage({ type: 'failed', message: String(error) } satisfies ScanMessage);
  }
};
