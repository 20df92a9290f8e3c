import type { ScanMessage, ScanRequest } from './dicom-header.worker';
import { filesOfSources } from './media-file';
import type { PickedFile } from './media-scan';
import type { ScanResult } from './studies';

/**
 * Handing a File to a worker clones its handle, about 0.2 ms each on the page's thread: 2,000 files
 * in one message held the page for 0.4–1.5 s. Batches of this size, each in its own task, keep every
 * task near 40 ms.
 */
const HANDOFF_BATCH = 200;

/** A picked list as the scan takes it: each file with its path in the picked folder. */
export const pickedFiles = (files: readonly File[]): PickedFile[] =>
  files.map((file) => ({ file, path: file.webkitRelativePath || file.name }));

/**
 * Reads the headers of `picked` in a Web Worker so the page stays responsive; reports progress and
 * resolves with the parsed headers and the Files to upload (`files[i]` for `sources[i]`: picked
 * files, and the DICOM entries of any ZIP among them) and the documents found (`documents`, picked
 * or ZIP entries, as Files the same way). Aborting terminates the worker.
 */
export function scanFiles(
  picked: PickedFile[],
  onProgress: (done: number, total: number) => void,
  signal?: AbortSignal,
): Promise<{ result: ScanResult; files: File[]; documents: File[] }> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL('./dicom-header.worker.ts', import.meta.url), { type: 'module' });
    const finish = () => {
      worker.terminate();
      signal?.removeEventListener('abort', onAbort);
    };
    const onAbort = () => {
      finish();
      reject(new DOMException('Aborted', 'AbortError'));
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    worker.onmessage = (event: MessageEvent<ScanMessage>) => {
      const message = event.data;
      if (message.type === 'progress') {
        onProgress(message.done, message.total);
        return;
      }
      finish();
      if (message.type === 'failed') {
        reject(new Error(message.message));
        return;
      }
      const { type: _type, ...result } = message;
      resolve({
        result,
        files: filesOfSources(picked, result.sources),
        documents: filesOfSources(picked, result.documents),
      });
    };
    worker.onerror = (event) => {
      finish();
      reject(new Error(event.message || 'worker failed'));
    };
    void (async () => {
      for (let start = 0; start < picked.length; start += HANDOFF_BATCH) {
        if (signal?.aborted) return;
        const files = picked.slice(start, start + HANDOFF_BATCH);
        worker.postMessage({ type: 'files', files } satisfies ScanRequest);
        await new Promise((resolve) => setTimeout(resolve, 0));
      }
      worker.postMessage({ type: 'scan' } satisfies ScanRequest);
    })();
  });
}
