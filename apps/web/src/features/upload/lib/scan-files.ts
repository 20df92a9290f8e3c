import type { ScanMessage, ScanRequest } from './dicom-header.worker';
import type { ScanResult } from './studies';

/**
 * Reads the headers of `files` in a Web Worker so the page stays responsive; reports progress and
 * resolves with the parsed headers. Aborting terminates the worker.
 */
export function scanFiles(
  files: File[],
  onProgress: (done: number, total: number) => void,
  signal?: AbortSignal,
): Promise<ScanResult> {
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
      const { type: _type, ...result } = message;
      resolve(result);
    };
    worker.onerror = (event) => {
      finish();
      reject(new Error(event.message || 'worker failed'));
    };
    worker.postMessage({ files } satisfies ScanRequest);
  });
}
